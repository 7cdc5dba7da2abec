// `lore model import DIR` through the built CLI with the generated model: a copied folder is
// installed only when it loads; a bundled model (dist/models, as `npm run package -- --model`
// leaves it) is used when nothing else is set or downloaded.

import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTinyModel } from '../../scripts/makeTinyModel';
import { bundledModel, preferBundled } from '../../src/host/embed/bundledModel';
import { locateModel } from '../../src/host/embed/modelFiles';
import { makeSpace, ok, runCli, type CliSpace } from '../support/cli';

describe('lore model import', () => {
  let space: CliSpace;
  let source: string;
  beforeEach(() => {
    space = makeSpace('lore-import-');
    source = makeTinyModel(join(space.root, 'usb-stick'), { name: 'tiny-bert', dtypes: ['q8'] }).path;
  });
  afterEach(() => space.cleanup());
  const models = () => join(space.home, 'models');

  it('installs a copied model that loads, and lore index then embeds with it', () => {
    const r = ok(space.lore('--json', 'model', 'import', source));
    assert.equal(r.json.model, 'tiny-bert');
    assert.equal(r.json.used_by_default, false);
    assert.ok(r.json.dims > 0);
    assert.ok(existsSync(join(models(), 'tiny-bert', 'onnx', 'model_quantized.onnx')));
    writeFileSync(join(space.workspace, 'README.md'), '# Deploy\n\nRun make deploy.\n');
    const withModel = ok(
      runCli(['index'], { home: space.home, workspace: space.workspace, env: { LORE_MODEL: 'tiny-bert' } }),
    );
    assert.match(withModel.stdout, /model: tiny-bert@q8#[0-9a-f]{12}; 1 embedded/);
  });

  it('installed under the default id, lore model status finds it at once', () => {
    const r = ok(space.lore('--json', 'model', 'import', source, '--name', 'Xenova/all-MiniLM-L6-v2'));
    assert.equal(r.json.used_by_default, true);
    assert.equal(r.json.check.ok, true, JSON.stringify(r.json.check));
    assert.match(ok(space.lore('model', 'status')).stdout, /loads from .*Xenova\/all-MiniLM-L6-v2/);
  });

  it('refuses an incomplete or broken folder and leaves nothing behind', () => {
    rmSync(join(source, 'tokenizer.json'));
    const incomplete = space.lore('model', 'import', source);
    assert.equal(incomplete.code, 2);
    assert.match(incomplete.stderr, /is missing tokenizer\.json/);
    const broken = makeTinyModel(join(space.root, 'broken'), { name: 'tiny-bad', dtypes: ['q8'] }).path;
    writeFileSync(join(broken, 'onnx', 'model_quantized.onnx'), 'not an onnx graph');
    const r = space.lore('model', 'import', broken);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /the model in .*tiny-bad does not load/);
    assert.deepEqual(existsSync(models()) ? readdirSync(models()) : [], [], 'no copy, staged or not');
  });

  it('does not replace an installed model without --replace', () => {
    ok(space.lore('model', 'import', source));
    const again = space.lore('model', 'import', source);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /tiny-bert is already installed .*pass --replace/);
    ok(space.lore('model', 'import', source, '--replace'));
  });
});

describe('a bundled model', () => {
  it('is used only when no model is set and none is downloaded', () => {
    const space = makeSpace('lore-bundled-');
    try {
      const dir = join(space.root, 'dist-models');
      makeTinyModel(dir, { name: 'tiny-bert', dtypes: ['q8'] });
      assert.equal(bundledModel(dir), undefined, 'no manifest, no bundled model');
      writeFileSync(join(dir, 'bundled.json'), JSON.stringify({ name: 'tiny-bert' }));
      const chosen = preferBundled({ dataDir: space.home }, dir);
      assert.deepEqual(chosen, { dataDir: space.home, modelDir: dir, modelName: 'tiny-bert' });
      assert.ok(!('reason' in locateModel(chosen)));
      assert.deepEqual(preferBundled({ dataDir: space.home, modelName: 'other' }, dir), {
        dataDir: space.home,
        modelName: 'other',
      });
      mkdirSync(join(space.home, 'models'), { recursive: true });
      makeTinyModel(join(space.home, 'models'), { name: 'Xenova/all-MiniLM-L6-v2', dtypes: ['q8'] });
      assert.deepEqual(
        preferBundled({ dataDir: space.home }, dir),
        { dataDir: space.home },
        'a downloaded default model wins',
      );
    } finally {
      space.cleanup();
    }
  });
});

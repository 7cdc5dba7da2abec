import { strict as assert } from 'node:assert';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { makeTinyModel } from '../../../../scripts/makeTinyModel';
import { buildVocabulary } from '../../../../scripts/tinyVocab';
import { tempDir } from '../../../support/store';

describe('makeTinyModel (generated random-weight BERT)', () => {
  let dir: string;
  beforeEach(() => (dir = tempDir('lore-tiny-model-')));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the transformers.js local-model layout', () => {
    const model = makeTinyModel(dir, { dtypes: ['fp32', 'q8'] });
    assert.equal(model.path, join(dir, 'tiny-bert'));
    for (const f of [
      'config.json',
      'tokenizer.json',
      'tokenizer_config.json',
      'onnx/model.onnx',
      'onnx/model_quantized.onnx',
    ]) {
      assert.ok(model.files.includes(join(model.path, f)), f);
    }
    const config = JSON.parse(readFileSync(join(model.path, 'config.json'), 'utf8'));
    assert.equal(config.model_type, 'bert');
    assert.equal(config.hidden_size, 32);
    const tokenizer = JSON.parse(readFileSync(join(model.path, 'tokenizer.json'), 'utf8'));
    assert.equal(tokenizer.model.type, 'WordPiece');
    for (const t of ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'deploy', 'kubernetes', '##s'])
      assert.ok(t in tokenizer.model.vocab, t);
  });

  it('is deterministic for a seed and differs between seeds', () => {
    const a = readFileSync(join(makeTinyModel(join(dir, 'a'), { seed: 7 }).path, 'onnx/model.onnx'));
    const b = readFileSync(join(makeTinyModel(join(dir, 'b'), { seed: 7 }).path, 'onnx/model.onnx'));
    const c = readFileSync(join(makeTinyModel(join(dir, 'c'), { seed: 8 }).path, 'onnx/model.onnx'));
    assert.ok(a.equals(b));
    assert.ok(!a.equals(c));
  });

  it('pads the vocabulary to a requested size', () => {
    const vocab = buildVocabulary(2000);
    assert.equal(vocab.length, 2000);
    assert.equal(new Set(vocab).size, 2000);
    assert.deepEqual(vocab.slice(0, 5), ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']);
  });
});

// kill -9 in the middle of embedding: vectors are committed batch by batch, so a process killed
// while the model runs keeps every batch of vectors it stored, and the next `lore index` (a new
// process, the model loaded again) embeds only the chunks that have none. The victim
// (test/support/embedVictim.ts) stops right after its first committed batch of vectors.

import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTinyModel } from '../../scripts/makeTinyModel';
import { runAndKill } from '../support/killVictim';
import { makeSpace, ok, runCli, type CliSpace } from '../support/cli';
import type { EmbeddingSignal, EmbedVictimOptions } from '../support/embedVictim';

const VICTIM = 'test/support/embedVictim.ts';
const FILES = 30;

function writeWorkspace(workspace: string): void {
  mkdirSync(join(workspace, 'docs'), { recursive: true });
  for (let i = 0; i < FILES; i++) {
    writeFileSync(
      join(workspace, 'docs', `note-${String(i).padStart(3, '0')}.md`),
      `# Note ${i}\n\n## Context\n\nService ${i} keeps its queue in Postgres.\n\n## Steps\n\n` +
        `1. Drain worker ${i}.\n2. Restart it.\n`,
    );
  }
}

describe('kill -9 in the middle of embedding', function () {
  this.timeout(120_000);
  let space: CliSpace;
  let env: NodeJS.ProcessEnv;

  before(() => {
    space = makeSpace('lore-embed-crash-');
    writeWorkspace(space.workspace);
    const models = join(space.root, 'models');
    const model = makeTinyModel(models, { dtypes: ['fp32'] });
    env = { LORE_HOME: space.home, LORE_MODEL_DIR: models, LORE_MODEL: model.name, LORE_MODEL_DTYPE: 'fp32' };
  });
  after(() => space.cleanup());

  it('keeps the vectors it committed, and the next index embeds only the rest', async () => {
    const { signal, exitSignal } = await runAndKill<EmbeddingSignal>(
      VICTIM,
      { workspace: space.workspace, home: space.home, embedBatchSize: 4 } satisfies EmbedVictimOptions,
      env,
    );
    assert.equal(exitSignal, 'SIGKILL');
    assert.ok(
      signal.embedded > 0 && signal.embedded < signal.total,
      `some vectors were stored before the kill (${signal.embedded} of ${signal.total})`,
    );
    const lore = (...args: string[]) => runCli(args, { home: space.home, workspace: space.workspace, env });

    const rerun = ok(lore('index', '--json'), 'lore index after the kill').json;
    assert.equal(rerun.summary.indexed, 0, 'the lexical index was complete before embedding began');
    assert.equal(
      rerun.summary.embedded,
      signal.total - signal.embedded,
      'the committed vectors survived the kill: only the chunks without one are embedded',
    );
    assert.equal(rerun.status.pending, 0);
  });
});

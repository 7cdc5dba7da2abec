// The owner's drift worker (host/driftWorker.ts, driftPreparer.ts): an index whose documents' new
// references are resolved on the worker holds exactly what an index done on one thread holds, and a
// worker that dies is reported in the owner's log, its batch checked on the owner's thread (nothing
// lost, nothing half-written), and the next batch goes to a new worker. A real worker thread, a
// real SQLite store and the real workspace files throughout; the crash is a real out-of-memory
// death (a heap limit no worker can start under).

import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Logger } from '../../../src/engine';
import { DriftWorkerPreparer, startDriftWorker, type StartDriftWorker } from '../../../src/host/driftPreparer';
import { runIndex } from '../../../src/host/engineApi';
import { openStore, type OpenStore } from '../../../src/host/openStore';
import { indexDigest } from '../../support/indexDigest';

const FIXTURES = resolve(__dirname, '..', '..', 'fixtures');
const LINKS = `# Links

- [the runbook](../drift-runbook/SOURCE.md) and [eks inputs](../drift-kinds/modules/eks/README.md#inputs)
- the script \`drift-runbook/scripts/restore_db.bash\` and the folder \`drift-mentions/tools\`
- the upgrader's \`main\` in \`drift-flags/cmd/upgrader/main.go\`
`;

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  const none = () => {};
  return { warnings, trace: none, debug: none, info: none, warn: (m: string) => void warnings.push(m), error: none };
}

describe('the owner’s drift worker', function () {
  this.timeout(300_000);
  let root: string;
  let workspace: string;
  const stores: OpenStore[] = [];
  const preparers: DriftWorkerPreparer[] = [];

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'lore-drift-worker-'));
    workspace = join(root, 'repo');
    mkdirSync(join(workspace, '.git'), { recursive: true });
    for (const name of ['drift-runbook', 'drift-kinds', 'drift-mentions', 'drift-flags', 'conventions'])
      cpSync(join(FIXTURES, name), join(workspace, name), { recursive: true });
    mkdirSync(join(workspace, 'notes'));
    writeFileSync(join(workspace, 'notes', 'links.md'), LINKS);
  });
  after(async () => {
    for (const p of preparers) await p.close();
    for (const s of stores) s.close();
    rmSync(root, { recursive: true, force: true });
  });

  async function store(home: string, preparer?: DriftWorkerPreparer): Promise<OpenStore> {
    const opened = openStore({ workspace, home: join(root, home), door: 'test' });
    stores.push(opened);
    await opened.symbols;
    if (preparer) opened.engine.useDriftPreparer(preparer.prepare);
    return opened;
  }

  it('indexes the same, survives a worker that dies, and hands the next batch to a new worker', async () => {
    const alone = await store('home-alone');
    await runIndex(alone.engine, workspace, { full: true });

    // The first worker cannot start (its heap is too small to load): a real death, mid-index.
    const logger = recordingLogger();
    let started = 0;
    const start: StartDriftWorker = (data) =>
      startDriftWorker(data, started++ === 0 ? { maxOldGenerationSizeMb: 1, maxYoungGenerationSizeMb: 1 } : undefined);
    const preparer = new DriftWorkerPreparer(workspace, logger, start);
    preparers.push(preparer);
    const helped = await store('home-worker', preparer);
    await runIndex(helped.engine, workspace, { full: true });
    assert.equal(preparer.failures, 1, 'the worker died once');
    assert.match(logger.warnings.join('\n'), /drift worker stopped \(.+\): its batch is checked on the owner's thread/);
    assert.deepEqual(indexDigest(helped.paths.database), indexDigest(alone.paths.database));

    // A saved document with a new link: the next batch goes to a new worker, and both stores agree again.
    const doc = join(workspace, 'notes', 'links.md');
    writeFileSync(doc, `${readFileSync(doc, 'utf8')}- [conventions](../conventions/SOURCE.md)\n`);
    await runIndex(alone.engine, workspace, {});
    await runIndex(helped.engine, workspace, {});
    assert.equal(started, 2, 'a second worker was started');
    assert.ok(preparer.prepared > 0, 'the new worker prepared the saved document');
    assert.equal(preparer.failures, 1);
    const got = indexDigest(helped.paths.database);
    assert.deepEqual(got, indexDigest(alone.paths.database));
    assert.ok(Object.keys(got).includes('notes/links.md'));
  });
});

// Every write path fingerprints a memory's anchors in the engine, not only `remember`: session close
// (accept), an Inbox resolution, a bundle import, a `.lore/` record arriving on index, supersede.
// A record written by any of them drifts like one saved by remember. And an index run keeps the
// documents' references current, batch by batch, so findings are right without a full scan.

import assert from 'node:assert/strict';
import { Engine } from '../../../../src/engine';
import { runIndex } from '../../../../src/host/engineApi';
import { WorkspaceFileSource } from '../../../../src/host/fileSource';
import { WorkspaceRepoFiles } from '../../../../src/host/repoFiles';
import { driftSpace, type DriftSpace } from '../../../support/drift';
import { agent, confirmedPerson, memory, person } from '../../../support/store';

const QUEUE =
  'export function claimNext(db) {\n  return db.query("SELECT * FROM jobs FOR UPDATE SKIP LOCKED LIMIT 1");\n}\n';
const ANCHOR = 'src/jobs/queue.ts#claimNext';

/** The memory's fingerprinted references, whatever their state. */
function tracked(s: DriftSpace, key: string): string[] {
  return s.engine
    .driftFindings({ key, states: ['current', 'changed', 'relocated', 'gone', 'broken'] })
    .map((f) => f.reference.raw);
}

/** After the anchored function changes, the per-save check reports the memory as drifted. */
function driftsAfterEdit(s: DriftSpace, key: string): void {
  s.write('src/jobs/queue.ts', QUEUE.replace('SKIP LOCKED', 'NOWAIT'));
  const findings = s.engine.driftCheck(['src/jobs/queue.ts']).filter((f) => f.source.key === key);
  assert.deepEqual(
    findings.map((f) => [f.reference.raw, f.state]),
    [[ANCHOR, 'changed']],
  );
}

describe('drift: every write path fingerprints anchors', function () {
  let s: DriftSpace;
  beforeEach(() => {
    s = driftSpace({ 'src/jobs/queue.ts': QUEUE });
  });
  afterEach(() => s.cleanup());

  it('session close (accept): an applied candidate is fingerprinted and drifts', () => {
    const plan = s.engine.sessionClose(
      agent,
      {
        session_id: 's-1',
        agent: 'claude',
        summary: 'Workers claim jobs with SKIP LOCKED.',
        memories: [
          {
            type: 'convention',
            title: 'Claim jobs with SKIP LOCKED',
            description: 'Workers claim the next job with FOR UPDATE SKIP LOCKED',
            anchors: [ANCHOR],
          },
        ],
      },
      { mode: 'accept' },
    );
    const key = plan.items.find((i) => i.outcome === 'applied')?.key;
    assert.ok(key, `a candidate was applied: ${JSON.stringify(plan.items)}`);
    assert.deepEqual(tracked(s, key), [ANCHOR]);
    driftsAfterEdit(s, key);
  });

  it('an Inbox resolution that saves a queued candidate fingerprints it', () => {
    s.engine.remember(
      person,
      memory({
        type: 'dead_end',
        title: 'Redis as the job queue',
        description: 'Redis lost jobs on failover; we went back to the database',
        body: '',
      }),
    );
    s.engine.sessionClose(
      agent,
      {
        session_id: 's-2',
        agent: 'claude',
        summary: 'Moving the queue to Redis.',
        memories: [
          {
            type: 'decision',
            title: 'Keep the job queue in Redis',
            description: 'Move the job queue to Redis for speed',
            anchors: [ANCHOR],
          },
        ],
      },
      { mode: 'accept' },
    );
    const item = s.engine.inbox().items.find((i) => i.kind === 'session');
    assert.ok(item, 'the risky candidate waits in the Inbox');
    const action = item.actions.find((a) => a !== 'dismiss')!;
    const result = s.engine.resolveInbox(confirmedPerson, item.id, action);
    const key = result.changed?.[0] ?? item.proposal?.key ?? item.keys[0];
    assert.ok(key, JSON.stringify(result));
    assert.deepEqual(tracked(s, key), [ANCHOR]);
    driftsAfterEdit(s, key);
  });

  it('a bundle import fingerprints the imported records in the receiving store', () => {
    const other = driftSpace({ 'src/jobs/queue.ts': QUEUE });
    try {
      const saved = other.engine.remember(person, memory({ anchors: [ANCHOR] }));
      assert.ok(saved.saved);
      s.engine.importBundle(person, other.engine.exportBundle({}));
      assert.deepEqual(tracked(s, saved.key), [ANCHOR]);
      driftsAfterEdit(s, saved.key);
    } finally {
      other.cleanup();
    }
  });

  it('a .lore/ record that arrives on index is fingerprinted', async () => {
    const other = driftSpace({ 'src/jobs/queue.ts': QUEUE });
    try {
      const saved = other.engine.remember(person, memory({ anchors: [ANCHOR] }));
      assert.ok(saved.saved);
      other.engine.canonicalize(person, saved.key, { as: 'record' }, new WorkspaceRepoFiles(s.root));
      await runIndex(s.engine, s.root, {});
      assert.equal(s.engine.get(saved.key).memory.key, saved.key, 'the record was imported');
      assert.deepEqual(tracked(s, saved.key), [ANCHOR]);
      driftsAfterEdit(s, saved.key);
    } finally {
      other.cleanup();
    }
  });

  it('supersede: the superseded record leaves drift, its successor keeps its references', () => {
    const old = s.engine.remember(person, memory({ anchors: [ANCHOR] }));
    const next = s.engine.remember(
      person,
      memory({ key: 'decision/claim-with-nowait', title: 'Claim jobs with NOWAIT', anchors: ['src/jobs/queue.ts'] }),
    );
    assert.ok(old.saved && next.saved);
    s.engine.supersede(person, old.key, next.key);
    assert.deepEqual(tracked(s, old.key), []);
    assert.deepEqual(tracked(s, next.key), ['src/jobs/queue.ts']);
  });
});

describe("drift: the index keeps documents' references current", function () {
  let s: DriftSpace;
  beforeEach(() => {
    s = driftSpace({
      'docs/jobs.md': '# Jobs\n\nSee [the runbook](runbook.md) and [the old notes](legacy.md).\n',
      'docs/runbook.md': '# Runbook\n\nRestart the workers.\n',
    });
  });
  afterEach(() => s.cleanup());

  const index = async (engine: Engine, seen: string[][] = []) => {
    const run = engine.index(new WorkspaceFileSource(s.root), { committed: (paths) => seen.push(paths) });
    for (let step = await run.next(); !step.done; step = await run.next());
    return seen;
  };

  it("after the first index the documents' references are extracted, with no drift scan", async () => {
    await index(s.engine);
    const findings = s.engine.driftFindings();
    assert.deepEqual(
      findings.map((f) => [f.source.path, f.reference.raw, f.state]),
      [['docs/jobs.md', 'legacy.md', 'broken']],
    );
    assert.equal(s.refs('docs/jobs.md', 'runbook.md')[0]?.state, 'current');
  });

  it('a later index re-checks only the files that changed, and a changed target drifts', async () => {
    await index(s.engine);
    s.write('docs/runbook.md', '# Runbook\n\nRestart the workers, then drain the queue.\n');
    const seen = await index(s.engine);
    assert.deepEqual(seen, [['docs/runbook.md']], 'only the changed file is handed to drift');
    assert.equal(s.refs('docs/jobs.md', 'runbook.md')[0]?.state, 'changed');
  });

  it('a document whose dead link is fixed is current after the next index', async () => {
    await index(s.engine);
    assert.equal(s.engine.driftFindings().length, 1, 'the dead link is found by the index');
    s.write('docs/jobs.md', '# Jobs\n\nSee [the runbook](runbook.md).\n');
    await index(s.engine);
    assert.deepEqual(s.engine.driftFindings(), []);
  });
});

// What the sidebar views list, read from a real store: Decisions and Dead Ends (active first,
// retracted and quarantined left out), Runbooks & Docs grouped by kind, the Inbox, Drift.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { localApi, runIndex } from '../../../../src/host/engineApi';
import type { LoreApi } from '../../../../src/vscode/contract';
import {
  docGroups,
  driftNodes,
  groupChildren,
  inboxNodes,
  memoryNodes,
  type LoreNode,
} from '../../../../src/vscode/views/treeModel';
import { memory, openTestStore, person, type TestStore } from '../../../support/store';

const FIXTURE = join(__dirname, '..', '..', '..', 'fixtures', 'workspace');
const F = '/repo';
const keysOf = (nodes: LoreNode[]) =>
  nodes.map((n) =>
    n.kind === 'memory'
      ? `${n.memory.key}:${n.memory.status}`
      : n.kind === 'doc'
        ? n.doc.path
        : n.kind === 'group'
          ? `${n.label}(${n.count})`
          : n.kind,
  );

describe('vscode tree data', () => {
  let store: TestStore;
  let api: LoreApi;

  beforeEach(() => {
    store = openTestStore();
    api = localApi(store.engine) as LoreApi;
  });
  afterEach(() => store.cleanup());

  it(
    'lists decisions active first, then disputed, deprecated and ' + 'superseded; never retracted or quarantined',
    async () => {
      const save = (title: string, extra = {}) => store.engine.remember(person, memory({ title, ...extra }));
      save('Old queue choice');
      store.clock.advanceDays(1);
      save('Use Postgres queue');
      store.clock.advanceDays(1);
      save('Cache in process');
      save('Scraped advice', { provenance: { source: 'webpage' } });
      save('Wrong claim');
      save('A dead end', { type: 'dead_end' });
      store.engine.setStatus(person, 'decision/cache-in-process', 'disputed', 'measurements disagree');
      store.engine.setStatus(person, 'decision/wrong-claim', 'retracted', 'was never true');
      store.engine.supersede(person, 'decision/old-queue-choice', 'decision/use-postgres-queue');

      assert.deepEqual(keysOf(await memoryNodes(api, F, ['decision'])), [
        'decision/use-postgres-queue:active',
        'decision/cache-in-process:disputed',
        'decision/old-queue-choice:superseded',
      ]);
      assert.deepEqual(keysOf(await memoryNodes(api, F, ['dead_end'])), ['dead_end/a-dead-end:active']);
      assert.deepEqual(keysOf(await inboxNodes(api, F, [])), ['decision/scraped-advice:quarantined']);
    },
  );

  it('groups indexed documents by kind, runbook memories first', async () => {
    await runIndex(store.engine, FIXTURE, {});
    store.engine.remember(person, memory({ type: 'runbook', title: 'Rotate the signing key' }));
    const groups = await docGroups(api, F);
    assert.equal(keysOf(groups)[0], 'Runbook memories(1)');
    const status = store.engine.indexStatus();
    assert.deepEqual(
      groups.slice(1).map((g) => (g.kind === 'group' ? [g.group, g.count] : [])),
      Object.entries(status.by_kind).sort(([a, n], [b, m]) => m - n || a.localeCompare(b)),
    );
    const runbooks = groups.find((g) => g.kind === 'group' && g.group === 'runbook');
    assert.ok(runbooks && runbooks.kind === 'group', 'the fixture has a runbook');
    const docs = await groupChildren(api, F, runbooks.group);
    assert.equal(docs.length, runbooks.count);
    assert.ok(docs.every((d) => d.kind === 'doc' && d.doc.kind === 'runbook'));
    assert.deepEqual(keysOf(await groupChildren(api, F, 'memory:runbook')), ['runbook/rotate-the-signing-key:active']);
  });

  it('lists drift findings that are not current, worst first', () => {
    const finding = (id: string, state: 'current' | 'changed' | 'gone' | 'relocated') => ({
      id,
      source: { kind: 'memory' as const, key: `decision/${id}` },
      reference: { raw: `src/${id}.ts`, form: 'anchor', target_path: `src/${id}.ts` },
      state,
      evidence: { detail: state },
      detected_at: '2026-01-01T00:00:00Z',
    });
    const nodes = driftNodes(F, [
      finding('a', 'changed'),
      finding('b', 'current'),
      finding('c', 'gone'),
      finding('d', 'relocated'),
    ]);
    assert.deepEqual(
      nodes.map((n) => (n.kind === 'finding' ? n.finding.state : '')),
      ['gone', 'changed', 'relocated'],
    );
  });
});

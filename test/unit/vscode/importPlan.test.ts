// The import plan as rows a person reads before saying yes (the editor's Import command).

import assert from 'node:assert/strict';
import type { ImportItem, ImportResult } from '../../../src/engine';
import { planChoices, planSections } from '../../../src/vscode/commands/importPlan';

const item = (key: string, action: ImportItem['action'], over: Partial<ImportItem> = {}): ImportItem => ({
  key,
  action,
  status: 'active',
  author: 'bob',
  author_known: true,
  local_version: action === 'create' ? null : 2,
  ...over,
});
const UNTRUSTED = 'imported from bob, an author this store does not trust';

function plan(items: ImportItem[]): ImportResult {
  return {
    dry_run: true,
    bundle: { store_id: 's', signer: 'bob', created_at: '2026-12-01T00:00:00Z', records: items.length, digest: 'd' },
    items,
    created: 0,
    replaced: 0,
    unchanged: 0,
    quarantined: [],
    conflicts: [],
  };
}

describe('vscode import plan', () => {
  it('sorts records into added, differs and skipped, each with its reason', () => {
    const sections = planSections(
      plan([
        item('decision/a', 'create', { status: 'quarantined', author_known: false, quarantine_reason: UNTRUSTED }),
        item('decision/b', 'conflict'),
        item('decision/c', 'unchanged'),
        item('decision/d', 'older', { local_version: 5 }),
      ]),
    );
    assert.deepEqual(
      sections.map((s) => s.title),
      ['Added (1)', 'Differs from this store (1)', 'Skipped (2)'],
    );
    assert.deepEqual(sections[0].rows[0], {
      label: 'decision/a',
      description: 'by bob (not a trusted author here)',
      detail: `lands quarantined: ${UNTRUSTED}`,
    });
    assert.match(sections[1].rows[0].detail!, /yours is version 2; replaced only if you choose to/);
    assert.deepEqual(
      sections[2].rows.map((r) => r.detail),
      ['already here with the same content', 'this store has a newer version (5) from the same author'],
    );
  });

  it('offers the yes that can be done: add, or add and replace when records differ, or none', () => {
    const offered = (items: ImportItem[]) => planChoices(plan(items)).map((c) => [c.label, c.replace]);
    assert.deepEqual(offered([item('k/a', 'create')]), [['Import: add 1 record', false]]);
    const both = [item('k/a', 'create'), item('k/b', 'conflict')];
    assert.deepEqual(offered(both), [['Import: add 1 record and replace 1 record', true]]);
    assert.deepEqual(planChoices(plan([item('k/c', 'unchanged')])), []);
  });
});

// The Drift view (issue 31, points 3 and 5): drift caused since Lore started comes first; what was
// already broken when Lore first looked is one group after it with its count (left out when
// lore.drift.showAlreadyBroken is off); a name several files match (ambiguous) is no row at all.

import { strict as assert } from 'node:assert';
import type { DriftFinding } from '../../../../src/vscode/contract';
import { ALREADY_BROKEN_GROUP, alreadyBrokenNodes, driftNodes } from '../../../../src/vscode/views/treeModel';

function finding(id: string, raw: string, state: DriftFinding['state'], alreadyBroken = false): DriftFinding {
  return {
    id,
    source: { kind: 'doc', path: 'docs/a.md', line: Number(id.slice(4)) },
    reference: { raw, form: 'link', target_path: state === 'broken' ? null : raw, symbol: null },
    state,
    evidence: { detail: state },
    detected_at: '2026-01-01T00:00:00.000Z',
    ...(alreadyBroken ? { already_broken: true } : {}),
  };
}

describe('Drift view: new drift first, already broken apart, ambiguous never', () => {
  const findings = [
    finding('ref-1', 'old-a.md', 'broken', true),
    finding('ref-2', 'meta.json', 'ambiguous'),
    finding('ref-3', 'setup.md', 'gone'),
    finding('ref-4', 'old-b.md', 'broken', true),
    finding('ref-5', 'api.md', 'changed'),
  ];

  it('lists drift caused since first, then one "already broken" group with its count', () => {
    const rows = driftNodes('/repo', findings);
    assert.deepEqual(
      rows.map((r) =>
        r.kind === 'finding' ? r.finding.reference.raw : r.kind === 'group' ? `${r.label} (${r.count})` : r.kind,
      ),
      ['setup.md', 'api.md', 'Already broken when Lore first looked (2)'],
    );
    const group = rows[2];
    assert.ok(group.kind === 'group' && group.group === ALREADY_BROKEN_GROUP);
    assert.deepEqual(
      alreadyBrokenNodes('/repo', findings).map((r) => (r.kind === 'finding' ? r.finding.id : '')),
      ['ref-1', 'ref-4'],
    );
  });

  it('hides the already-broken group when the setting is off', () => {
    assert.deepEqual(
      driftNodes('/repo', findings, false).map((r) => r.kind),
      ['finding', 'finding'],
    );
  });
});

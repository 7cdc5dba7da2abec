// The Drift view and the Problems panel say the same thing about a finding (issue 31, review): a gone
// anchor was drawn with the error icon in the error colour while Problems filed it as a warning.
// Logic only (a fake `vscode`): the row's icon as toTreeItem builds it, against driftSeverity, the rule
// diagnostics.ts files Problems by.

import { strict as assert } from 'node:assert';
import { createFakeVscode, installFakeVscode } from '../../../support/fakeVscode';
import type { DriftFinding } from '../../../../src/vscode/contract';

function finding(state: DriftFinding['state'], alreadyBroken = false): DriftFinding {
  return {
    id: `f-${state}-${alreadyBroken}`,
    source: { kind: 'doc', path: 'docs/a.md', line: 3 },
    reference: { raw: 'setup.md#install', form: 'link', target_path: 'setup.md', symbol: 'install' },
    state,
    evidence: { detail: state },
    detected_at: '2026-01-01T00:00:00.000Z',
    ...(alreadyBroken ? { already_broken: true } : {}),
  };
}

describe('Drift view icons agree with the Problems panel', () => {
  installFakeVscode(createFakeVscode());
  const { toTreeItem } =
    require('../../../../src/vscode/views/treeItems') as typeof import('../../../../src/vscode/views/treeItems');
  const rowIcon = (f: DriftFinding) => {
    const icon = toTreeItem({ kind: 'finding', folder: '/repo', finding: f, also: [] }).iconPath as {
      id: string;
      color?: { id: string };
    };
    return { id: icon.id, color: icon.color?.id };
  };

  it('draws a gone anchor as a warning, the severity Problems files it with', () => {
    assert.deepEqual(rowIcon(finding('gone')), { id: 'warning', color: 'list.warningForeground' });
  });

  it('never draws a finding with the error icon or colour, and colours each row by its Problems severity', () => {
    const { driftSeverity } =
      require('../../../../src/vscode/drift/severity') as typeof import('../../../../src/vscode/drift/severity');
    for (const state of ['gone', 'broken', 'changed', 'relocated'] as const) {
      for (const old of [false, true]) {
        const f = finding(state, old);
        const icon = rowIcon(f);
        assert.notEqual(icon.id, 'error', `${state}${old ? ' (already broken)' : ''}`);
        assert.notEqual(icon.color, 'list.errorForeground', `${state}${old ? ' (already broken)' : ''}`);
        const expected = driftSeverity(f) === 'warning' ? 'list.warningForeground' : 'notificationsInfoIcon.foreground';
        assert.equal(icon.color, expected, `${state}${old ? ' (already broken)' : ''}`);
      }
    }
    assert.equal(driftSeverity(finding('gone')), 'warning');
    assert.equal(driftSeverity(finding('gone', true)), 'information');
  });
});

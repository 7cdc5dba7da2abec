// What the views and the status bar call things: kinds by their plural names, times local and relative.

import assert from 'node:assert/strict';
import { DOC_KINDS } from '../../../../src/engine';
import { docTitle, kindLabel, when } from '../../../../src/vscode/views/labels';

describe('vscode labels', () => {
  it('names every document kind for people ("ADRs", "Runbooks")', () => {
    assert.equal(kindLabel('adr'), 'ADRs');
    assert.equal(kindLabel('runbook'), 'Runbooks');
    for (const kind of DOC_KINDS) assert.notEqual(kindLabel(kind), kind, `${kind} has a name`);
  });

  it('says times relative to now, with the local date', () => {
    const now = Date.parse('2026-12-01T10:00:00Z');
    assert.match(when('2026-12-01T09:55:00Z', now), /^5 minutes ago \(.+\)$/);
    assert.match(when('2026-11-29T10:00:00Z', now), /^2 days ago \(/);
    assert.match(when('2026-12-01T09:59:50Z', now), /^just now \(/);
    assert.equal(when(null, now), 'never');
  });

  it('gives a doc a title even when the index has none, or a stray quote', () => {
    assert.equal(docTitle('', 'docs/ops/restart.md'), 'restart.md');
    assert.equal(docTitle('"', 'docs/ops/restart.md'), 'restart.md');
    assert.equal(docTitle('Restarting workers', 'docs/ops/restart.md'), 'Restarting workers');
  });
});

// The lens's words and places: records grouped on the line of the symbol or heading they are
// anchored to (the top of the file otherwise), counted as a person says them, dead ends first;
// the hover names each record with its status and drift and offers open, recall related, re-verify.

import assert from 'node:assert/strict';
import type { AnchoredRecord } from '../../../../src/engine';
import { hoverMarkdown, kindWord, lensGroups, lensTitle } from '../../../../src/vscode/lens/lensModel';

const rec = (over: Partial<AnchoredRecord>): AnchoredRecord => ({
  source: 'memory',
  id: 'decision/x',
  kind: 'decision',
  title: 'A decision',
  description: 'Why it was chosen',
  status: 'active',
  symbol: null,
  state: 'current',
  finding: 'ref-1',
  detail: '',
  ...over,
});

describe('vscode lens model', () => {
  it('counts kinds as a person says them, dead ends first with a warning mark', () => {
    const records = [
      rec({ id: 'decision/a' }),
      rec({ id: 'decision/b' }),
      rec({ id: 'dead_end/c', kind: 'dead_end' }),
      rec({ source: 'doc', id: 'docs/adr/0001-x.md', kind: 'adr' }),
    ];
    assert.equal(lensTitle(records), '$(warning) 1 dead end · 2 decisions · 1 ADR');
    assert.equal(lensTitle([rec({}), rec({ id: 'decision/b', state: 'changed' })]), '2 decisions · 1 drifted');
    assert.equal(kindWord('runbook'), 'runbook');
    assert.equal(kindWord('dead_end', 2), 'dead ends');
    assert.equal(kindWord('adr', 2), 'ADRs');
  });

  it('places records on their symbol’s declaration, a heading’s line, or the top of the file', () => {
    const definitions = [
      { name: 'JobQueue', start: 3, end: 20 },
      { name: 'JobQueue.enqueue', start: 5, end: 9 },
    ];
    const groups = lensGroups(
      [
        rec({ id: 'decision/file' }),
        rec({ id: 'dead_end/m', kind: 'dead_end', symbol: 'JobQueue.enqueue' }),
        rec({ id: 'decision/bare', symbol: 'enqueue' }),
        rec({ id: 'decision/gone', symbol: 'removedLongAgo' }),
      ],
      definitions,
    );
    assert.deepEqual(
      groups.map((g) => [g.line, g.symbol, g.records.map((r) => r.id)]),
      [
        [0, null, ['decision/file', 'decision/gone']],
        [5, 'JobQueue.enqueue', ['dead_end/m', 'decision/bare']],
      ],
    );
    const md = lensGroups([rec({ symbol: 'rollback' })], [], [{ line: 7, slug: 'rollback' }]);
    assert.deepEqual(
      md.map((g) => g.line),
      [7],
    );
  });

  it('the hover shows title, kind, description, status, drift and the three actions, with Markdown escaped', () => {
    const text = hoverMarkdown('/w', {
      line: 5,
      symbol: 'enqueue',
      records: [rec({ id: 'dead_end/nowait', kind: 'dead_end', title: 'NOWAIT *loses* jobs', state: 'changed' })],
    });
    assert.match(text, /Anchored to `enqueue`/);
    assert.match(text, /\*\*NOWAIT \\\*loses\\\* jobs\*\* — dead end/);
    assert.match(text, /Why it was chosen/);
    assert.match(text, /active · the code changed since it was checked/);
    for (const command of ['lore.open', 'lore.recallRelated', 'lore.reverify'])
      assert.ok(text.includes(`(command:${command}?`), command);
    const args = /command:lore\.open\?([^ )]+)/.exec(text)![1];
    assert.deepEqual(JSON.parse(decodeURIComponent(args)), [{ folder: '/w', key: 'dead_end/nowait' }]);
    const adrRecord = rec({ source: 'doc', id: 'docs/adr/1.md', kind: 'adr' });
    const adr = hoverMarkdown('/w', { line: 0, symbol: null, records: [adrRecord] });
    assert.match(adr, /— ADR/);
    assert.ok(adr.includes('command:lore.reverifyAnchored?'));
  });
});

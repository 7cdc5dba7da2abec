// The editor offers only the lifecycle acts the engine allows: every `when` clause in package.json
// that shows a lifecycle command on a memory row is evaluated against the row's contextValue for
// every status (anchored or not), and must say yes exactly when the engine's canBecome does. The
// clauses test the row's capability tokens (canDispute…), never a list of statuses, and the other
// memory menus (Edit, Open Anchor…) still read the row's status and anchor through the tokens. The
// commands' own pickers ask canBecome directly (lifecycleCommands.ts), so there is no copy to drift.

import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canBecome, STATUSES, type Transition } from '../../../src/engine';
import { findingContextValue, memoryContextValue } from '../../../src/vscode/views/contextValues';

const MANIFEST = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as {
  contributes: { menus: Record<string, { command: string; when?: string }[]> };
};

/** The lifecycle commands and the status each leads to. */
const ACTS: Record<string, Transition> = {
  'lore.deprecate': 'deprecated',
  'lore.dispute': 'disputed',
  'lore.retract': 'retracted',
  'lore.supersede': 'superseded',
  'lore.promote': 'active',
};

/**
 * Whether a `when` clause holds for a memory row in a Lore view: the `viewItem` terms (`=~ /re/`,
 * `== value`) are read as VS Code reads them; other context keys (view, trust) are taken as true,
 * and terms about other kinds of rows (finding., inbox) cannot match a memory's contextValue anyway.
 */
function holds(when: string, viewItem: string): boolean {
  const js = when
    .replace(/viewItem\s*=~\s*\/((?:\\\/|[^/])+)\/([a-z]*)/g, (_m, re: string, flags: string) =>
      String(new RegExp(re, flags).test(viewItem)),
    )
    .replace(/viewItem\s*==\s*([\w.-]+)/g, (_m, value: string) => String(value === viewItem))
    .replace(/view\s*(=~\s*\/(?:\\\/|[^/])+\/|==\s*[\w.-]+)/g, 'true')
    .replace(/\b(isWorkspaceTrusted|true|false)\b/g, (m) => (m === 'false' ? 'false' : 'true'));
  assert.match(js, /^[\s()!&|truefals]+$/, `a when clause this test cannot read: ${when}`);
  return Function(`return (${js});`)() as boolean;
}

describe('lifecycle menus follow the engine (canBecome)', () => {
  const rowMenus = MANIFEST.contributes.menus['view/item/context'].filter((m) => m.command in ACTS);

  it('every lifecycle command has a row menu', () => {
    assert.deepEqual([...new Set(rowMenus.map((m) => m.command))].sort(), Object.keys(ACTS).sort());
  });

  for (const [command, to] of Object.entries(ACTS)) {
    it(`${command} shows on exactly the memory rows that can become ${to}`, () => {
      for (const menu of rowMenus.filter((m) => m.command === command)) {
        const wrong: string[] = [];
        for (const status of STATUSES)
          for (const anchored of [false, true]) {
            const value = memoryContextValue(status, anchored);
            if (holds(menu.when ?? 'true', value) !== canBecome(status, to))
              wrong.push(`${value}: menu ${holds(menu.when ?? 'true', value)}, engine ${canBecome(status, to)}`);
          }
        assert.deepEqual(wrong, [], `${command} when: ${menu.when}`);
      }
    });
  }

  it('the lifecycle clauses test capability tokens, not lists of statuses', () => {
    for (const menu of rowMenus)
      assert.doesNotMatch(menu.when ?? '', new RegExp(STATUSES.join('|')), `${menu.command} restates statuses`);
  });
});

describe('the other memory menus still read status and anchor with tokens on the row', () => {
  const menus = MANIFEST.contributes.menus['view/item/context'];
  /** Where each shows: the statuses and whether the row must be anchored (as before the tokens). */
  const SHOWN: Record<string, { statuses: readonly string[]; anchored?: true }> = {
    'lore.open': { statuses: STATUSES },
    'lore.copyKey': { statuses: STATUSES },
    'lore.forget': { statuses: STATUSES },
    'lore.edit': { statuses: ['active', 'disputed', 'deprecated', 'quarantined'] },
    'lore.openAnchor': { statuses: STATUSES, anchored: true },
    'lore.reverify': { statuses: ['active', 'disputed', 'deprecated'] },
    'lore.updateAnchor': { statuses: ['active', 'disputed', 'deprecated'], anchored: true },
    'lore.promoteToRepository': { statuses: ['active'] },
  };
  for (const [command, shown] of Object.entries(SHOWN))
    it(`${command} shows on the rows it did`, () => {
      // Its menus on memory rows (an inline Reverify shows on drift findings only).
      const found = menus.filter((m) => m.command === command && (m.when ?? '').includes('viewItem =~ /^memory'));
      assert.ok(found.length > 0, `${command} has no row menu`);
      for (const menu of found)
        for (const status of STATUSES)
          for (const anchored of [false, true]) {
            const expected = shown.statuses.includes(status) && (anchored || !shown.anchored);
            const when = (menu.when ?? 'true').replace(/&& isWorkspaceTrusted/, '');
            assert.equal(holds(when, memoryContextValue(status, anchored)), expected, `${command} on ${status}`);
          }
    });
});

describe("a memory's drift finding offers only the lifecycle acts its status allows", () => {
  const menus = MANIFEST.contributes.menus['view/item/context'];
  const memoryFinding = (status?: string) =>
    findingContextValue({ source: { kind: 'memory' }, state: 'gone' }, { status });
  /** Dispute and Supersede are offered on a finding (the memory's own row offers every act). */
  const ON_FINDINGS: Record<string, Transition> = { 'lore.dispute': 'disputed', 'lore.supersede': 'superseded' };

  for (const [command, to] of Object.entries(ACTS))
    it(`${command} shows on a finding of a memory exactly when it is offered there and the engine allows it`, () => {
      const found = menus.filter((m) => m.command === command);
      const wrong: string[] = [];
      for (const status of STATUSES) {
        const value = memoryFinding(status);
        const shown = found.some((m) => holds(m.when ?? 'true', value));
        const expected = command in ON_FINDINGS && canBecome(status, to);
        if (shown !== expected) wrong.push(`${status} (${value}): menu ${shown}, expected ${expected}`);
      }
      assert.deepEqual(wrong, []);
      // A memory whose status could not be read is offered none.
      assert.equal(
        found.some((m) => holds(m.when ?? 'true', memoryFinding())),
        false,
      );
    });

  it("a disputed memory's finding offers Supersede, not Dispute; a quarantined one's neither", () => {
    assert.equal(memoryFinding('disputed'), 'finding.memory canSupersede');
    assert.equal(memoryFinding('quarantined'), 'finding.memory');
    assert.equal(memoryFinding('active'), 'finding.memory canDispute canSupersede');
  });

  it("the finding's other menus (Open Reference, Re-verify, Update Anchor) show whatever the status", () => {
    for (const command of ['lore.openAnchor', 'lore.reverify', 'lore.updateAnchor'])
      for (const status of [...STATUSES, undefined]) {
        const found = menus.filter((m) => m.command === command);
        const when = (m: { when?: string }) => (m.when ?? 'true').replace(/&& isWorkspaceTrusted/, '');
        assert.ok(
          found.some((m) => holds(when(m), memoryFinding(status))),
          `${command} on ${status}`,
        );
      }
  });

  it("a document's finding keeps its state in the value the menus match exactly", () => {
    const doc = { source: { kind: 'doc' as const }, state: 'relocated' };
    assert.equal(findingContextValue(doc), 'finding.doc.relocated');
    assert.equal(findingContextValue(doc, { unlinked: true }), 'finding.doc.relocated.unlinked');
    const update = menus.filter((m) => m.command === 'lore.updateReference');
    assert.ok(update.every((m) => holds(m.when!, 'finding.doc.relocated')));
    assert.ok(update.every((m) => !holds(m.when!, 'finding.doc.relocated.unlinked')));
  });
});

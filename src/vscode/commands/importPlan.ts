// A bundle's import plan as a person reads it before saying yes: what will be added, what differs
// from this store's version (replaced only if they choose so; theirs is archived), and what is
// skipped and why, each record on its own row with its author and where it lands. No `vscode`
// import: the Import command draws these rows in a quick pick.

import type { ImportItem, ImportResult } from '../../engine';

export interface PlanRow {
  label: string;
  description: string;
  detail?: string;
}

export interface PlanSection {
  title: string;
  rows: PlanRow[];
}

const REPLACED_ONLY = 'replaced only if you choose to (yours is archived, kept in history)';

function row(item: ImportItem, why?: string): PlanRow {
  const author = `by ${item.author}${item.author_known ? '' : ' (not a trusted author here)'}`;
  const lands =
    item.status === 'quarantined'
      ? `lands quarantined: ${item.quarantine_reason ?? 'not trusted yet'}`
      : `lands ${item.status}`;
  return { label: item.key, description: author, detail: why ?? lands };
}

/** The plan in sections, empty ones left out. */
export function planSections(plan: ImportResult): PlanSection[] {
  const of = (actions: string[]) => plan.items.filter((i) => actions.includes(i.action));
  const sections: PlanSection[] = [
    { title: 'Added', rows: of(['create']).map((i) => row(i)) },
    {
      title: 'Differs from this store',
      rows: of(['conflict', 'replace']).map((i) => row(i, `yours is version ${i.local_version}; ${REPLACED_ONLY}`)),
    },
    {
      title: 'Skipped',
      rows: [
        ...of(['unchanged']).map((i) => row(i, 'already here with the same content')),
        ...of(['older']).map((i) => row(i, `this store has a newer version (${i.local_version}) from the same author`)),
      ],
    },
  ];
  return sections.filter((s) => s.rows.length).map((s) => ({ ...s, title: `${s.title} (${s.rows.length})` }));
}

export interface PlanChoice {
  label: string;
  detail: string;
  replace: boolean;
}

/**
 * What the person can say yes to: nothing when nothing would change. A bundle with records that
 * differ from this store's is taken whole or not at all (the engine refuses it otherwise), so
 * then the one yes replaces them.
 */
export function planChoices(plan: ImportResult): PlanChoice[] {
  const added = plan.items.filter((i) => i.action === 'create').length;
  const differ = plan.items.filter((i) => i.action === 'conflict' || i.action === 'replace').length;
  const records = (n: number) => `${n} record${n === 1 ? '' : 's'}`;
  const choices: PlanChoice[] = [];
  if (added && !differ) {
    choices.push({ label: `Import: add ${records(added)}`, detail: 'nothing already here changes', replace: false });
  }
  if (differ) {
    choices.push({
      label: `Import: add ${records(added)} and replace ${records(differ)}`,
      detail: 'the bundle’s versions are taken; yours are archived and stay in history',
      replace: true,
    });
  }
  return choices;
}

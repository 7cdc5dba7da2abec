// The kind of record a question names ("which runbooks cover the queue", "incidents caused by
// DNS", "the ADR on logging") or asks for by its form ("how do I…" asks for steps: a runbook or
// a guide): the memory types and document kinds it wants. Recall boosts
// those in fusion; it never filters on them (a question that names runbooks may still be best
// answered by a decision), and a kind word does not count as evidence in the text itself.

import type { DocKind } from '../model/kinds';
import type { MemoryType } from '../model/types';

export interface KindIntent {
  types: Set<MemoryType>;
  kinds: Set<DocKind>;
  /** The query words that named a kind (left out of lexical scoring). */
  words: Set<string>;
}

interface Wanted {
  types: MemoryType[];
  kinds: DocKind[];
}

const RUNBOOK: Wanted = { types: ['runbook'], kinds: ['runbook'] };
const INCIDENT: Wanted = { types: ['incident', 'postmortem'], kinds: ['postmortem'] };
const DECISION: Wanted = { types: ['decision'], kinds: ['adr', 'rfc'] };
const RFC: Wanted = { types: ['decision'], kinds: ['rfc', 'adr'] };
const CONVENTION: Wanted = { types: ['convention'], kinds: ['guide'] };
const GUIDE: Wanted = { types: ['convention', 'reference'], kinds: ['guide', 'readme'] };
const DEAD_END: Wanted = { types: ['dead_end'], kinds: [] };

/** Single words (and their plurals) that name a kind. */
const WORDS: Record<string, Wanted> = {
  runbook: RUNBOOK,
  playbook: { types: ['runbook'], kinds: ['runbook', 'ansible'] },
  sop: RUNBOOK,
  procedure: RUNBOOK,
  incident: INCIDENT,
  postmortem: INCIDENT,
  outage: INCIDENT,
  rca: INCIDENT,
  adr: DECISION,
  decision: DECISION,
  rfc: RFC,
  proposal: RFC,
  convention: CONVENTION,
  guideline: CONVENTION,
  guide: GUIDE,
  tutorial: GUIDE,
  howto: GUIDE,
  readme: { types: ['reference'], kinds: ['readme'] },
  changelog: { types: [], kinds: ['changelog'] },
  terraform: { types: [], kinds: ['terraform'] },
  hcl: { types: [], kinds: ['terraform'] },
  workflow: { types: [], kinds: ['ci'] },
  helm: { types: [], kinds: ['helm'] },
  kubernetes: { types: [], kinds: ['kubernetes'] },
  k8s: { types: [], kinds: ['kubernetes'] },
  dockerfile: { types: [], kinds: ['dockerfile'] },
  ansible: { types: [], kinds: ['ansible'] },
  preference: { types: ['preference'], kinds: [] },
};

/** Two-word names: "post mortem", "dead end", "release notes", "architecture decision", "design doc". */
const PAIRS: Record<string, Wanted> = {
  'post mortem': INCIDENT,
  'dead end': DEAD_END,
  'architecture decision': DECISION,
  'design doc': RFC,
  'github action': { types: [], kinds: ['ci'] },
};

/** A question that asks for steps ("how do I…", "how to…", "steps to…") asks for a procedure. */
const HOW_TO = /\b(how (do|can|should|would) (i|we|you)|how to|steps (to|for))\b/;
const PROCEDURE: Wanted = { types: ['runbook'], kinds: ['runbook', 'guide'] };

/**
 * "Why did we choose X" asks for the decision about X: the verb is the question's form, not its
 * subject, so it names a decision and leaves the text (where "choosing" matches any ADR that
 * chose anything).
 */
const CHOOSING_VERBS = [
  ...['choose', 'chose', 'chosen', 'pick', 'picked', 'select', 'selected', 'adopt', 'adopted'],
  ...['decide', 'decided', 'prefer', 'preferred', 'switch', 'switched', 'move', 'moved', 'migrate', 'migrated'],
];
const WHY_CHOSE = new RegExp(
  `\\bwhy (?:did|do|does|have|has|would|were) (?:we|they|you|i|the team|people) (${CHOOSING_VERBS.join('|')})\\b`,
);

/** A plural or possessive reduced to the form the tables use. */
function singular(word: string): string {
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('es') && /(ss|sh|ch|x)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && word.length > 3) return word.slice(0, -1);
  return word;
}

/**
 * The kinds a query names, or null when it names none. `notKinds`: words that here are part of a
 * name ("Terraform Cloud" names a product, not Terraform files), so they name no kind.
 */
export function kindIntent(query: string, notKinds: ReadonlySet<string> = new Set()): KindIntent | null {
  const spelled = query
    .toLowerCase()
    .replace(/post-mortem/g, 'post mortem')
    .replace(/dead-end/g, 'dead end');
  const raw = spelled.replace(/how-to/g, 'howto').match(/[\p{L}\p{N}]+/gu) ?? [];
  const words = raw.map(singular);
  const intent: KindIntent = { types: new Set(), kinds: new Set(), words: new Set() };
  const add = (wanted: Wanted, ...named: string[]) => {
    wanted.types.forEach((t) => intent.types.add(t));
    wanted.kinds.forEach((k) => intent.kinds.add(k));
    named.forEach((w) => intent.words.add(w));
  };
  for (let i = 0; i < words.length; i++) {
    const pair = i + 1 < words.length ? PAIRS[`${words[i]} ${words[i + 1]}`] : undefined;
    if (pair) {
      add(pair, raw[i], raw[i + 1]);
      i++;
    } else if (Object.hasOwn(WORDS, words[i]) && !notKinds.has(raw[i])) add(WORDS[words[i]], raw[i]);
  }
  const sentence = raw.join(' ');
  const procedure = HOW_TO.test(sentence);
  if (procedure) add(PROCEDURE);
  const chose = WHY_CHOSE.exec(sentence);
  if (chose) add(DECISION, chose[1]);
  return intent.words.size || procedure ? intent : null;
}

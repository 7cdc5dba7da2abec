// Contradictions without a fact key: two live records of one type about one subject that state
// different values of one exclusive kind ("deploys go out on Tuesdays" / "we deploy on Thursdays
// now"). Precision first: the values must come from a closed set where two members cannot both
// hold (days of the week, months, how often), neither record may state the other's value, and the
// titles must make one statement: they share their subject, and what else they say is filler or a
// word of change ("now", "instead"), so "deploys go out on Tuesdays" and "deploy freeze on
// Fridays" (two statements about deploys) are not a contradiction.

import { stem, terms } from '../text/words';

const CLASSES: Record<string, readonly string[]> = {
  weekday: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'],
  month: [
    'january',
    'february',
    'march',
    'april',
    'june',
    'july',
    'august',
    'september',
    'october',
    'november',
    'december',
  ],
  frequency: ['hourly', 'daily', 'nightly', 'weekly', 'fortnightly', 'monthly', 'quarterly', 'yearly', 'annually'],
};

const VALUE_OF = new Map<string, { cls: string; value: string }>();
for (const [cls, values] of Object.entries(CLASSES)) {
  for (const value of values) {
    VALUE_OF.set(value, { cls, value });
    VALUE_OF.set(`${value}s`, { cls, value });
  }
}

/** Words a restatement may add or drop without saying something else. */
const FILLER = new Set([
  'go',
  'happen',
  'take',
  'place',
  'now',
  'instead',
  'anymore',
  'longer',
  'since',
  'start',
  'from',
  'mov',
  'chang',
  'switch',
  'shipp',
  'every',
  'usual',
  'always',
  'generally',
  'normally',
  'typical',
  'get',
  'run',
  'ship',
  'releas',
]);

type Stating = { title: string; description: string };

interface Stated {
  values: Map<string, Set<string>>;
  subject: Set<string>;
}

function stated(m: { title: string; description: string }): Stated {
  const values = new Map<string, Set<string>>();
  const subject = new Set<string>();
  for (const word of terms(`${m.title} ${m.description}`)) {
    const v = VALUE_OF.get(word);
    if (v) values.set(v.cls, (values.get(v.cls) ?? new Set()).add(v.value));
  }
  for (const word of terms(m.title)) if (!VALUE_OF.has(word)) subject.add(stem(word));
  return { values, subject };
}

/**
 * Whether the record states any value of a closed set: one that states none conflicts with no
 * record (valueConflict needs a value of one kind on both sides), so its candidates need not be read.
 */
export function statesValue(m: Stating): boolean {
  for (const word of terms(`${m.title} ${m.description}`)) if (VALUE_OF.has(word)) return true;
  return false;
}

export interface ValueConflict {
  kind: string;
  values: [string[], string[]];
  shared_subject: string[];
}

/** Whether two records state different values of one kind about one subject (null when not). */
export function valueConflict(a: Stating, b: Stating): ValueConflict | null {
  const x = stated(a);
  const y = stated(b);
  const shared = [...x.subject].filter((s) => y.subject.has(s));
  const extra = [...x.subject, ...y.subject].filter((s) => !shared.includes(s) && !FILLER.has(s));
  if (!shared.length || extra.length) return null;
  for (const [cls, mine] of x.values) {
    const theirs = y.values.get(cls);
    if (!theirs || [...mine].some((v) => theirs.has(v))) continue;
    return { kind: cls, values: [[...mine], [...theirs]], shared_subject: shared };
  }
  return null;
}

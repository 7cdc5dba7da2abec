// How each record type is named to a person, in one table every door reads: the editor's pickers,
// wizard titles, tree icons, lens and hints; the CLI's hook sections; the MCP `type` field's guide.
// The type keys themselves (`dead_end`) are the wire format and live in types.ts.

import { MEMORY_TYPES, type MemoryType } from './types';

export interface TypeInfo {
  /** Title case, as a wizard's title names it: "Dead End". */
  name: string;
  /** In a sentence, singular and plural: "dead end", "dead ends". */
  word: string;
  plural: string;
  /** What a record of this type holds, after a dash in a picker: "what was tried and did not work". */
  blurb: string;
  /** The codicon a tree row shows for it. */
  icon: string;
}

export const TYPE_INFO: Readonly<Record<MemoryType, TypeInfo>> = {
  decision: {
    name: 'Decision',
    word: 'decision',
    plural: 'decisions',
    blurb: 'what was chosen and why',
    icon: 'law',
  },
  dead_end: {
    name: 'Dead End',
    word: 'dead end',
    plural: 'dead ends',
    blurb: 'what was tried and did not work',
    icon: 'circle-slash',
  },
  runbook: {
    name: 'Runbook',
    word: 'runbook',
    plural: 'runbooks',
    blurb: 'how to do an operational task',
    icon: 'book',
  },
  incident: {
    name: 'Incident',
    word: 'incident',
    plural: 'incidents',
    blurb: 'what happened',
    icon: 'flame',
  },
  postmortem: {
    name: 'Postmortem',
    word: 'postmortem',
    plural: 'postmortems',
    blurb: 'what was learned',
    icon: 'history',
  },
  convention: {
    name: 'Convention',
    word: 'convention',
    plural: 'conventions',
    blurb: 'how things are done here',
    icon: 'symbol-ruler',
  },
  fact: {
    name: 'Fact',
    word: 'fact',
    plural: 'facts',
    blurb: 'something true about the system',
    icon: 'symbol-constant',
  },
  preference: {
    name: 'Preference',
    word: 'preference',
    plural: 'preferences',
    blurb: 'how someone likes it done',
    icon: 'settings',
  },
  reference: {
    name: 'Reference',
    word: 'reference',
    plural: 'references',
    blurb: 'where to find something',
    icon: 'references',
  },
};

/** A type's entry, or undefined for a word that is not a record type (a doc kind, a typo). */
export function typeInfo(type: string): TypeInfo | undefined {
  return (MEMORY_TYPES as readonly string[]).includes(type) ? TYPE_INFO[type as MemoryType] : undefined;
}

/** "Dead end — what was tried and did not work": a type offered in a picker. */
export function typeChoice(type: MemoryType): string {
  const { name, blurb } = TYPE_INFO[type];
  return `${name[0]}${name.slice(1).toLowerCase()} — ${blurb}`;
}

/** "Decisions", "Dead ends": a type as a section heading. */
export function typeHeading(type: MemoryType): string {
  const { plural } = TYPE_INFO[type];
  return plural[0].toUpperCase() + plural.slice(1);
}

/** One line per type, "decision: what was chosen and why", for an agent choosing one. */
export function typeGuide(): string {
  return MEMORY_TYPES.map((t) => `${t}: ${TYPE_INFO[t].blurb}`).join('; ');
}

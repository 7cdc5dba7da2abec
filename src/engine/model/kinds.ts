// The kinds of indexed document (PRODUCT.md "Records").

export const DOC_KINDS = [
  'adr',
  'rfc',
  'runbook',
  'postmortem',
  'changelog',
  'readme',
  'guide',
  'terraform',
  'kubernetes',
  'helm',
  'dockerfile',
  'ci',
  'ansible',
  'config',
  'code',
  'other',
] as const;
export type DocKind = (typeof DOC_KINDS)[number];

/** Kinds written for people to read, chunked by headings. */
export const PROSE_KINDS: readonly DocKind[] = ['adr', 'rfc', 'runbook', 'postmortem', 'changelog', 'readme', 'guide'];

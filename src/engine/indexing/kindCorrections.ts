// `.lore/kinds`: the kinds a person set, committed so the team shares them. One rule a line,
// `<glob> <kind>` (a workspace-relative picomatch glob, then the kind), `#` comments and blank
// lines; the last rule that matches a path wins, as in .gitattributes. This module owns the
// format: parsing (a bad line is reported with its number and ignored, never stopping an index),
// the kinds as people name them ("ADR", "Runbooks"), matching, and the edits `lore kind set|remove`
// and the editor's Set Kind… make. The correction is applied on top of classify() by the indexer.

import picomatch from 'picomatch';
import { LoreError } from '../errors';
import { DOC_KINDS, type DocKind } from '../model/kinds';

export const KIND_RULES_FILE = '.lore/kinds';

/** Rules read from one file at most: each indexed path is tested against every rule. */
export const MAX_KIND_RULES = 1000;
const MAX_GLOB_CHARS = 1000;

/** Globs compile with the discovery rules' options; `windows: false` keeps a `\` an escape on every OS. */
const GLOB_OPTIONS = { dot: true, windows: false } as const;

export interface KindRule {
  glob: string;
  kind: DocKind;
  /** 1-based line in `.lore/kinds`. */
  line: number;
}

export interface KindRuleProblem {
  /** 1-based line in `.lore/kinds` (0: the file as a whole). */
  line: number;
  message: string;
}

export interface KindRules {
  rules: KindRule[];
  problems: KindRuleProblem[];
}

const HEADER =
  '# Document kinds set by people, shared with the team through git (Lore reads this file).\n' +
  '# One rule a line: <glob> <kind>. Globs are relative to the workspace root, and the last\n' +
  '# rule that matches a file wins. The kinds: adr rfc runbook postmortem changelog readme\n' +
  '# guide terraform kubernetes helm dockerfile ci ansible config code other.\n';

/** Names people use for a kind, beyond the kind itself (compared lower-case, single-spaced, singular). */
const ALIASES: Record<string, DocKind> = {
  decision: 'adr',
  'decision record': 'adr',
  'architecture decision': 'adr',
  'architecture decision record': 'adr',
  proposal: 'rfc',
  'design doc': 'rfc',
  'design proposal': 'rfc',
  kep: 'rfc',
  'run book': 'runbook',
  'post mortem': 'postmortem',
  'incident review': 'postmortem',
  'incident report': 'postmortem',
  'change log': 'changelog',
  'release note': 'changelog',
  'read me': 'readme',
  doc: 'guide',
  documentation: 'guide',
  tutorial: 'guide',
  'how to': 'guide',
  howto: 'guide',
  tf: 'terraform',
  opentofu: 'terraform',
  'terraform file': 'terraform',
  k8s: 'kubernetes',
  'kubernetes manifest': 'kubernetes',
  chart: 'helm',
  'helm chart': 'helm',
  containerfile: 'dockerfile',
  'ci pipeline': 'ci',
  pipeline: 'ci',
  'ansible file': 'ansible',
  configuration: 'config',
  'configuration file': 'config',
  source: 'code',
  'source code': 'code',
  'other document': 'other',
};

function singular(word: string): string {
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('s') && !word.endsWith('ss') && word.length > 2) return word.slice(0, -1);
  return word;
}

/** The kind a person means by `name` ("runbook", "ADR", "Runbooks", "post-mortem"), or undefined. */
export function kindNamed(name: string): DocKind | undefined {
  const spaced = name
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
  const words = spaced.split(' ');
  const one = [...words.slice(0, -1), singular(words[words.length - 1])].join(' ');
  for (const candidate of [spaced, one]) {
    if ((DOC_KINDS as readonly string[]).includes(candidate)) return candidate as DocKind;
    if (ALIASES[candidate]) return ALIASES[candidate];
  }
  return undefined;
}

/** The kind named, or an error that lists the kinds there are. */
export function requireKindNamed(name: string): DocKind {
  const kind = kindNamed(name);
  if (!kind)
    throw new LoreError(
      'INVALID_INPUT',
      `unknown kind ${JSON.stringify(name)}; the kinds are ${DOC_KINDS.join(', ')}`,
      'name one of them (plurals and names such as "ADR" or "Runbooks" are understood)',
    );
  return kind;
}

/** Why a glob cannot be a rule, or null when it can. */
export function globProblem(glob: string): string | null {
  if (!glob) return 'the glob is empty';
  if (glob.length > MAX_GLOB_CHARS) return `the glob is longer than ${MAX_GLOB_CHARS} characters`;
  // One rule a line: a line break in a glob would write a second rule nobody asked for.
  // eslint-disable-next-line no-control-regex -- control characters are what this looks for
  if (/[\u0000-\u001f\u007f]/.test(glob)) return 'the glob holds a line break or another control character';
  if (glob.startsWith('!')) return `"${glob}" is negated; write the rule for the files you mean instead`;
  if (glob.startsWith('/') || /^[A-Za-z]:/.test(glob) || glob.split('/').includes('..'))
    return `"${glob}" must be relative to the workspace root (no leading "/" or "..")`;
  try {
    picomatch.makeRe(glob, GLOB_OPTIONS);
  } catch (error) {
    return `"${glob}" is not a valid glob (${(error as Error).message})`;
  }
  return null;
}

/** A glob that matches exactly this workspace-relative path: its glob characters (and a `#`) escaped. */
export function literalGlob(path: string): string {
  return path.replace(/[\\*?[\]{}()!+@#]/g, '\\$&');
}

/** A line's glob and kind word: the kind is its last word, so a glob may hold spaces. */
function splitLine(line: string): { glob: string; word: string } | null {
  const match = /^(.*\S)\s+(\S+)$/.exec(line);
  return match ? { glob: match[1], word: match[2] } : null;
}

export function parseKindRules(text: string): KindRules {
  const rules: KindRule[] = [];
  const problems: KindRuleProblem[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line || line.startsWith('#')) continue;
    const problem = (message: string) => problems.push({ line: i + 1, message });
    if (rules.length >= MAX_KIND_RULES) {
      problem(`more than ${MAX_KIND_RULES} rules; this one and the rest are ignored`);
      break;
    }
    const parts = splitLine(line);
    if (!parts) {
      problem('a rule is a glob and a kind, e.g. "docs/operations/** runbook"');
      continue;
    }
    const kind = kindNamed(parts.word);
    if (!kind) {
      problem(`unknown kind ${JSON.stringify(parts.word)}; the kinds are ${DOC_KINDS.join(', ')}`);
      continue;
    }
    const bad = globProblem(parts.glob);
    if (bad) problem(bad);
    else rules.push({ glob: parts.glob, kind, line: i + 1 });
  }
  return { rules, problems };
}

export interface KindMatcher {
  /** The rule that sets this path's kind (the last one that matches), if any. */
  ruleFor(path: string): KindRule | undefined;
}

export function kindMatcher(rules: readonly KindRule[]): KindMatcher {
  const tests = rules.map((rule) => ({ rule, test: picomatch(rule.glob, GLOB_OPTIONS) }));
  return {
    ruleFor(path) {
      for (let i = tests.length - 1; i >= 0; i--) if (tests[i].test(path)) return tests[i].rule;
      return undefined;
    },
  };
}

/** Whether a glob matches a path, as a rule would. */
export function globMatcher(glob: string): (path: string) => boolean {
  return picomatch(glob, GLOB_OPTIONS);
}

/** What two rule lists decide, compared: the same globs with the same kinds in the same order. */
export function sameDecisions(a: readonly KindRule[], b: readonly KindRule[]): boolean {
  return a.length === b.length && a.every((rule, i) => rule.glob === b[i].glob && rule.kind === b[i].kind);
}

function globOfLine(line: string): string | undefined {
  const trimmed = line.trim();
  if (!trimmed || trimmed.startsWith('#')) return undefined;
  return splitLine(trimmed)?.glob;
}

/**
 * The file with `glob → kind` as its last rule (so it wins over every earlier one), and any
 * earlier line for the same glob taken out. Comments and other lines stay as they were.
 */
export function withKindRule(text: string, glob: string, kind: DocKind): string {
  const kept = text === '' ? HEADER : withoutKindRule(text, [glob]).text;
  return `${kept}${kept.endsWith('\n') || kept === '' ? '' : '\n'}${glob} ${kind}\n`;
}

/** The file without the lines whose glob is one of `globs`, and how many went. */
export function withoutKindRule(text: string, globs: readonly string[]): { text: string; removed: number } {
  const lines = text.split('\n');
  const kept = lines.filter((line) => {
    const glob = globOfLine(line.replace(/\r$/, ''));
    return glob === undefined || !globs.includes(glob);
  });
  return { text: kept.join('\n'), removed: lines.length - kept.length };
}

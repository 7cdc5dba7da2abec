// The one place the editor rewords what the engine and host say for the CLI: a hint naming a
// `lore …` command or a LORE_* variable reaches a person at the editor as the command, view or
// `lore.*` setting that does the same here. Hints with no editor counterpart (lore history, lore
// promote in a terminal, lore doctor, lore trust) pass unchanged. Drift findings read as one plain
// sentence naming what changed and who refers to it (driftSentence).

import { isLoreError, type DriftFinding } from '../engine';
import { EMBEDDING_OFF, OWNER_SETTINGS, type OwnerSetting } from '../host/ownerSettings';

/** CLI fragment (backticks or quotes around it optional) → what to use in the editor. */
const REWORDINGS: [RegExp, string][] = [
  [/lore model download/, 'Lore: Download Embedding Model'],
  [/lore reverify( [^\s`"',;)]+)?/, 'Lore: Re-verify… (or the Drift view)'],
  [/lore drift list( --json)?/, 'the Drift view'],
  [/lore inbox resolve [^\s`"',;)]+ --action [a-z_]+/, 'Resolve… on the item in the Inbox view'],
  [/lore inbox/, 'the Inbox view'],
  [/lore list/, 'the Lore views'],
  [/lore recall/, 'Lore: Recall…'],
  [/lore export/, 'Lore: Export Memories…'],
  [/lore index( --full)?/, 'Lore: Reindex Workspace'],
  ...ownerSettingWordings(),
];

/** A LORE_* variable the owner reads → the `lore.*` setting that sets it (host/ownerSettings.ts). */
function ownerSettingWordings(): [RegExp, string][] {
  const { embeddingEnabled, endpointTokenFile, ...plain } = OWNER_SETTINGS;
  const words = (s: OwnerSetting) => `the ${s.setting} setting`;
  return [
    [new RegExp(`${embeddingEnabled.env}=${EMBEDDING_OFF}`), `${words(embeddingEnabled)} off`],
    // The owner also takes the token itself (LORE_EMBED_TOKEN); the editor only ever names a file.
    [new RegExp(`${endpointTokenFile.env} or LORE_EMBED_TOKEN`), words(endpointTokenFile)],
    [new RegExp(`${endpointTokenFile.env}|LORE_EMBED_TOKEN`), words(endpointTokenFile)],
    // A name is not the start of a longer one: LORE_MODEL is not LORE_MODEL_DIR.
    ...Object.values(plain).map((s): [RegExp, string] => [new RegExp(`${s.env}(?![A-Z_])`), words(s)]),
  ];
}

export function editorWording(text: string): string {
  let out = text;
  for (const [pattern, replacement] of REWORDINGS) {
    const quoted = new RegExp(`[\`"]?${pattern.source}[\`"]?`, 'g');
    out = out.replace(quoted, replacement);
  }
  return out;
}

/**
 * A notification's text, naming Lore once: prefixed with "Lore: " unless it already names Lore
 * (starts with "Lore", or names a command as "Lore: Recall…"). Every message a Lore command shows
 * goes through here, so none says "Lore:" twice.
 */
export function loreSays(text: string): string {
  return /^Lore\b/.test(text) || text.includes('Lore:') ? text : `Lore: ${text}`;
}

/** An error as one line for a notification: its message, then its hint in the editor's words. */
export function errorText(error: unknown): string {
  if (!isLoreError(error)) return (error as Error).message;
  return error.hint ? `${error.message} — ${editorWording(error.hint)}` : error.message;
}

const MARKDOWN = /\.(md|mdx|markdown)$/i;
const LINES = /^L\d+(-L?\d+)?$/;

/** What a reference points at, as a sentence names it: "`enqueue` in src/queue.ts", "`scripts/retry.sh`". */
function targetWords(f: DriftFinding): string {
  const { target_path: path, symbol, raw } = f.reference;
  if (!path) return `\`${raw}\``;
  if (!symbol) return `\`${path}\``;
  if (LINES.test(symbol)) return `lines ${symbol} of ${path}`;
  if (MARKDOWN.test(path)) return `section #${symbol} of ${path}`;
  return `\`${symbol}\` in ${path}`;
}

/** A document kind as a person says it ("ADR", "runbook"); kinds without a name of their own are a "page". */
const KIND_NAMES: Record<string, string> = {
  adr: 'ADR',
  rfc: 'RFC',
  runbook: 'runbook',
  postmortem: 'postmortem',
  changelog: 'changelog',
  readme: 'README',
  guide: 'guide',
  terraform: 'Terraform file',
  kubernetes: 'manifest',
  helm: 'chart',
  dockerfile: 'Dockerfile',
  ci: 'pipeline',
  ansible: 'playbook',
  config: 'config file',
  code: 'file',
};

/** A document kind as a person says it: "ADR", "runbook"; "page" for one with no name of its own. */
export function docKindWords(kind?: string): string {
  return (kind && KIND_NAMES[kind.toLowerCase()]) || 'page';
}

/** Who refers, for a sentence: "this ADR" (a doc of that kind) or "this decision" (a memory of that type). */
export function referrerWords(f: DriftFinding, docKind?: string): string {
  if (f.source.kind === 'doc') return `this ${docKindWords(docKind)}`;
  const type = (f.source.key ?? '').split('/')[0];
  return `this ${type ? type.replace(/_/g, ' ') : 'memory'}`;
}

/**
 * One sentence for a drifted reference, e.g. "`enqueue` in src/queue.ts changed since this ADR was
 * last checked". `referrer` names who refers to it ("this ADR", or a path in a list of findings).
 * What the engine found stays in the finding's evidence (the Drift view's tooltip shows it too).
 */
export function driftSentence(f: DriftFinding, referrer: string): string {
  const target = targetWords(f);
  const since = `since ${referrer} was last checked`;
  const who = referrer.charAt(0).toUpperCase() + referrer.slice(1);
  switch (f.state) {
    case 'changed':
      return `${target} changed ${since}`;
    case 'relocated':
      return `${target} moved to ${f.evidence.new_path ?? 'another place'} ${since}`;
    case 'gone':
      return `${target} was ${f.reference.symbol ? 'removed or renamed' : 'deleted or moved'} ${since}`;
    case 'ambiguous': {
      const candidates = f.evidence.detail.replace(/^ambiguous:\s*/, '');
      return `${who} refers to \`${f.reference.raw}\`, which is ambiguous: ${candidates}`;
    }
    case 'broken':
      return `${who} refers to \`${f.reference.raw}\`, but ${f.evidence.detail}`;
    default:
      return `${target} is unchanged ${since}`;
  }
}

// `lore remember`: save a memory (a new one, or a new version of an existing key).

import { readFileSync } from 'node:fs';
import { validateRemember, type RememberInput, type SaveResult } from '../../engine';
import type { Command } from '../command';
import { integerOption, listOption, numberOption, requiredOption, stringOption, UsageError } from '../parse';

/** The flags --clear may name, each the option that would otherwise set that field. */
const CLEARABLE = ['body', 'anchor', 'link', 'tag', 'confidence', 'valid-until', 'review-after', 'fact-key'] as const;
const CLEARED_FIELD: Record<(typeof CLEARABLE)[number], string> = {
  body: 'body',
  anchor: 'anchors',
  link: 'links',
  tag: 'tags',
  confidence: 'confidence',
  'valid-until': 'valid_until',
  'review-after': 'review_after',
  'fact-key': 'fact_key',
};

export const rememberCommand: Command = {
  name: 'remember',
  summary: 'save a decision, dead end, runbook, incident, convention or fact',
  usage:
    'lore remember --type T --title S --description S [--body S | ' +
    '--body-file F] [--key K] [--anchor PATH[#SYMBOL]]... [--link ' +
    'L]... [--tag T]... [--basis B] [--confidence N] [--source KIND] ' +
    '[--valid-from ISO] [--valid-until ISO] [--review-after ISO] ' +
    '[--fact-key K] [--expected-version N] [--clear FIELD]... (saving an existing --key keeps every ' +
    'field not named; --clear body|anchor|link|tag|confidence|valid-until|review-after|fact-key empties one)',
  options: {
    type: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    body: { type: 'string' },
    'body-file': { type: 'string' },
    key: { type: 'string' },
    anchor: { type: 'string', multiple: true },
    link: { type: 'string', multiple: true },
    tag: { type: 'string', multiple: true },
    scope: { type: 'string' },
    basis: { type: 'string' },
    confidence: { type: 'string' },
    source: { type: 'string' },
    'valid-from': { type: 'string' },
    'valid-until': { type: 'string' },
    'review-after': { type: 'string' },
    'fact-key': { type: 'string' },
    'expected-version': { type: 'string' },
    clear: { type: 'string', multiple: true },
  },
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx, v) {
    if (v.body !== undefined && v['body-file'] !== undefined)
      throw new UsageError('give --body or --body-file, not both');
    let body = stringOption(v.body);
    const bodyFile = stringOption(v['body-file']);
    if (bodyFile !== undefined) {
      try {
        body = readFileSync(bodyFile === '-' ? 0 : bodyFile, 'utf8');
      } catch (error) {
        throw new UsageError(
          `cannot read --body-file ${bodyFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        );
      }
    }
    const cleared = clearedFields(listOption(v.clear) ?? [], v);
    const input = {
      type: requiredOption('remember', 'type', v.type),
      title: requiredOption('remember', 'title', v.title),
      description: requiredOption('remember', 'description', v.description),
      body,
      key: stringOption(v.key),
      anchors: listOption(v.anchor),
      links: listOption(v.link),
      tags: listOption(v.tag),
      scope: stringOption(v.scope),
      basis: stringOption(v.basis),
      confidence: numberOption('confidence', v.confidence),
      provenance: { source: stringOption(v.source) ?? 'user', client: 'lore-cli' },
      valid_from: stringOption(v['valid-from']),
      valid_until: stringOption(v['valid-until']),
      review_after: stringOption(v['review-after']),
      fact_key: stringOption(v['fact-key']),
      expected_version: integerOption('expected-version', v['expected-version']),
      ...cleared,
    };
    // Checked before the store is opened, so refused input never creates a store.
    validateRemember(input as unknown as RememberInput);
    const result = await ctx.withEngine((engine) => engine.remember(ctx.actor(), input as unknown as RememberInput), {
      create: true,
    });
    ctx.print(result, renderSave);
    // A lost race is an answer, not a failure, but scripts need to see it: exit 3.
    return result.saved ? 0 : 3;
  },
};

/** `--clear anchor --clear body` → { anchors: null, body: null }: what the engine reads as "empty this". */
function clearedFields(names: string[], values: Record<string, unknown>): Record<string, null> {
  const out: Record<string, null> = {};
  for (const raw of names) {
    const name = raw.replace(/^--/, '').replace(/s$/, '') as (typeof CLEARABLE)[number];
    if (!CLEARABLE.includes(name))
      throw new UsageError(`--clear ${raw} is not a field it can clear; use one of: ${CLEARABLE.join(', ')}`);
    const given = name === 'body' ? (values.body ?? values['body-file']) : values[name];
    if (given !== undefined) throw new UsageError(`give --${name} or --clear ${name}, not both`);
    out[CLEARED_FIELD[name]] = null;
  }
  return out;
}

function renderSave(result: SaveResult): string {
  if (!result.saved) {
    return `not saved: ${result.conflict.reason}\nthe current version is shown by: lore get ${result.key}`;
  }
  const lines = [
    result.unchanged
      ? `unchanged: ${result.key} is already at version ${result.version} with this content`
      : `saved ${result.key} (version ${result.version}, ${result.status})`,
  ];
  if (result.status === 'quarantined')
    lines.push(
      'it came from an untrusted source and stays out of recall until a person runs: lore promote ' + result.key,
    );
  for (const key of result.superseded) lines.push(`superseded ${key} (same fact key)`);
  for (const dead of result.warnings.dead_ends)
    lines.push(`warning: this resembles the dead end ${dead.key}: ${dead.title} — ${dead.description}`);
  for (const c of result.warnings.contradictions) {
    lines.push(
      `warning: this may contradict ${c.key} (${c.values[0].join(', ')} ` +
        `there, ${c.values[1].join(', ')} here); supersede it: lore ` +
        `supersede ${c.key} --by ${result.key}`,
    );
  }
  return lines.join('\n');
}

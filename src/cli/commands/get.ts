// `lore get`: one whole record, body included (the current version or a kept older one).

import { describeDrift, type GetResult, type WithDrift } from '../../engine';
import type { Command } from '../command';
import { integerOption } from '../parse';

export const getCommand: Command = {
  name: 'get',
  summary: 'show one memory in full',
  usage: 'lore get KEY [--version N]',
  options: { version: { type: 'string' } },
  positionals: { min: 1, max: 1, names: 'KEY' },
  async run(ctx, v, [key]) {
    const result = await ctx.withEngine((engine) => engine.get(key, integerOption('version', v.version)));
    ctx.print(result, renderGet);
    return 0;
  },
};

function renderGet({ memory: m, flags, archived, drift }: WithDrift<GetResult>): string {
  const lines = [
    `${m.key}  v${m.version}${archived ? ' (archived)' : ''}  ` +
      `${m.status}${m.status_reason ? `: ${m.status_reason}` : ''}${flags.length ? `  [${flags.join(', ')}]` : ''}`,
    `${m.title}`,
    `${m.description}`,
    `basis ` +
      `${m.basis}${m.confidence !== null ? `, confidence ${m.confidence}` : ''}; ` +
      `source ` +
      `${m.provenance.source}${m.provenance.client ? ` (${m.provenance.client})` : ''}`,
    `valid from ${m.valid_from}${m.valid_until ? ` until ${m.valid_until}` : ''}; recorded ${m.recorded_at}`,
  ];
  if (m.superseded_by) lines.push(`superseded by ${m.superseded_by}`);
  if (m.supersedes) lines.push(`supersedes ${m.supersedes}`);
  if (m.review_after) lines.push(`review after ${m.review_after}`);
  if (m.fact_key) lines.push(`fact key ${m.fact_key}`);
  if (m.anchors.length) lines.push(`anchors: ${m.anchors.join(', ')}`);
  if (m.links.length) lines.push(`links: ${m.links.join(', ')}`);
  if (m.tags.length) lines.push(`tags: ${m.tags.join(', ')}`);
  lines.push(...describeDrift(drift));
  if (m.body) lines.push('', m.body);
  return lines.join('\n');
}

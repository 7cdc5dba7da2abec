// `lore recall`: one ranked list of what Lore knows about a question — titles and descriptions, never bodies.

import { describeDrift, describeVerification, meaningHint, type DriftFlag, type RecallResult } from '../../engine';
import type { Command } from '../command';
import { integerOption, listOption } from '../parse';

export const recallCommand: Command = {
  name: 'recall',
  summary: 'find the memories and documents that answer a question, best first',
  usage: 'lore recall QUERY [--type T]... [--kind K]... [--limit N] [--as-of ISO]',
  options: {
    type: { type: 'string', multiple: true },
    kind: { type: 'string', multiple: true },
    limit: { type: 'string' },
    'as-of': { type: 'string' },
  },
  positionals: { min: 1, max: Infinity, names: 'QUERY' },
  async run(ctx, v, positionals) {
    const input = {
      query: positionals.join(' '),
      types: listOption(v.type),
      kinds: listOption(v.kind),
      limit: integerOption('limit', v.limit),
      as_of: v['as-of'] as string | undefined,
    };
    const result = await ctx.withEngine((engine) => engine.recall(input), {
      create: false,
      embed: true,
      embedLate: true,
      symbols: false,
    });
    ctx.print(result, renderRecall);
    return 0;
  },
};

function renderRecall(result: RecallResult): string {
  const refused = result.refused.map((r) => `refused ${r.key} v${r.version}: ${r.reason}`).join('\n');
  const body = renderHits(result);
  return refused ? `${body}\n${refused}` : body;
}

function renderHits(result: RecallResult): string {
  if (!result.results.length) {
    const hint = meaningHint(result);
    return (
      `nothing recalled for ` +
      `"${result.query}"${result.as_of ? ` as of ${result.as_of}` : ''}${hint ? `\n${hint}` : ''}`
    );
  }
  return result.results
    .map((hit, i) => {
      const flags = hit.flags.length ? `  [${hit.flags.join(', ')}]` : '';
      const drift = describeDrift((hit as { drift?: DriftFlag[] }).drift)
        .map((line) => `\n     ${line}`)
        .join('');
      // Every memory says whether it holds; a document only when a reference on its lines drifted.
      const verified =
        hit.verification && (hit.record === 'memory' || hit.verification.state !== 'holds')
          ? `\n     ${describeVerification(hit.verification)}`
          : '';
      if (hit.record === 'doc')
        return (
          `${i + 1}. ${hit.path}:${hit.lines[0]}-${hit.lines[1]}  ` +
          `(${hit.score.total.toFixed(3)}, ${hit.kind})${flags}\n     ` +
          `${hit.title} — ${hit.description}${drift}${verified}`
        );
      const reason = hit.status_reason ? `\n     ${hit.status}: ${hit.status_reason}` : '';
      return (
        `${i + 1}. ${hit.key}  (${hit.score.total.toFixed(3)})${flags}\n  ` +
        `   ${hit.title} — ${hit.description}${reason}${drift}${verified}`
      );
    })
    .join('\n');
}

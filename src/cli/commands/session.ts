// `lore session close --file F [--review | --accept]`: hand in what a session settled and get a
// plan (add / merge / supersede / promote, each with risk and reason). --review (the default)
// writes nothing; --accept applies the low-risk items of a routine session and queues the rest in
// the Inbox; incident and migration sessions are review-first (accept queues everything).

import { readFileSync } from 'node:fs';
import type { SessionCloseResult } from '../../engine';
import type { Command } from '../command';
import { requiredOption, UsageError } from '../parse';

const FORMAT =
  'F is JSON: {"kind": "routine" | "incident" | "migration", ' +
  '"summary": "what happened (optional)", "session_id": "…", ' +
  '"agent": "…", ' +
  ('"source": "agent" (default for the candidates), "memories": [{ ' +
    'remember fields: type, title, description, body, key, anchors, ' +
    'links, tags, ') +
  ('basis, confidence, provenance, valid_from, valid_until, ' +
    'review_after, fact_key, plus optional "supersedes": KEY }]}; "-" ' +
    'reads stdin');

export const sessionCommand: Command = {
  name: 'session',
  summary:
    'close a session: candidate memories in, a plan out (review by default; --accept applies the low-risk items)',
  usage: `lore session close --file F [--review | --accept]   (${FORMAT})`,
  options: { file: { type: 'string' }, review: { type: 'boolean' }, accept: { type: 'boolean' } },
  positionals: { min: 1, max: 1, names: 'close' },
  async run(ctx, v, [sub]) {
    if (sub !== 'close')
      throw new UsageError(
        `unknown session command "${sub}"`,
        'use: lore session close --file F [--review | --accept]',
      );
    if (v.review === true && v.accept === true) throw new UsageError('give --review or --accept, not both');
    const file = requiredOption('session close', 'file', v.file);
    const input = readSession(file);
    const mode = v.accept === true ? 'accept' : 'review';
    const result = await ctx.withEngine(
      (engine) => engine.sessionClose(ctx.actor(), input as Record<string, unknown>, { mode }),
      { create: mode === 'accept' },
    );
    ctx.print(result, renderPlan);
    return 0;
  },
};

function readSession(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read --file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `--file ${file} is not JSON (${(error as Error).message})`,
      'see `lore help session` for the format',
    );
  }
}

function renderPlan(r: SessionCloseResult): string {
  const head =
    r.mode === 'review'
      ? `plan for a ${r.kind} session (review: nothing was written)`
      : `${r.kind} session closed: ${r.applied} applied, ${r.queued} queued in the Inbox`;
  const width = Math.max(0, ...r.items.map((i) => i.key.length));
  const lines = r.items.map((i) => {
    const where = i.target && i.target !== i.key ? ` → ${i.target}` : '';
    const status =
      r.mode === 'review'
        ? i.applies
          ? 'accept applies it'
          : 'accept queues it'
        : `${i.outcome}${i.inbox_id ? ` #${i.inbox_id}` : ''}`;
    return (
      `  ${String(i.id).padStart(2)}. ${i.action.padEnd(9)} ` +
      `${i.risk.padEnd(6)} ${(i.key + where).padEnd(width)}  ` +
      `${i.reason}  [${status}]`
    );
  });
  const tail = [...r.notes];
  if (r.mode === 'review' && r.items.length) tail.push('apply with: lore session close --file F --accept');
  if (r.mode === 'accept' && r.queued) tail.push('the rest waits for you in: lore inbox');
  return [head, ...lines, ...tail].join('\n');
}

// `lore audit verify [--checkpoints FILE]` and `lore audit checkpoint FILE`: check the hash chain
// of every write, and keep its head somewhere the store cannot rewrite.

import { appendFileSync, readFileSync } from 'node:fs';
import type { AuditCheckpoint, AuditVerdict } from '../../engine';
import type { Command } from '../command';
import { UsageError } from '../parse';

function readCheckpoints(file: string): AuditCheckpoint[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read checkpoints file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line, i) => {
      try {
        const parsed = JSON.parse(line) as AuditCheckpoint;
        if (!Number.isInteger(parsed.seq) || typeof parsed.hash !== 'string') throw new Error('missing seq or hash');
        return parsed;
      } catch (error) {
        throw new UsageError(
          `${file} line ${i + 1} is not a checkpoint (${(error as Error).message})`,
          'each line is {"seq":N,"hash":"…"} as written by lore audit checkpoint',
        );
      }
    });
}

export const auditCommand: Command = {
  name: 'audit',
  summary: 'verify the audit chain of every write, or write its head to a checkpoint file',
  usage: 'lore audit verify [--checkpoints FILE] | lore audit checkpoint FILE',
  options: { checkpoints: { type: 'string' } },
  positionals: { min: 1, max: 2, names: 'verify | checkpoint FILE' },
  async run(ctx, v, [sub, file]) {
    if (sub === 'checkpoint') {
      if (!file) throw new UsageError('lore audit checkpoint needs a FILE to append the head to');
      const checkpoint = await ctx.withEngine((engine) => engine.auditCheckpoint());
      appendFileSync(file, JSON.stringify(checkpoint) + '\n', { mode: 0o600 });
      ctx.print(
        checkpoint,
        (c) =>
          `checkpoint of event ${c.seq} (${c.hash}) appended to ${file}; keep a copy where the store cannot reach it`,
      );
      return 0;
    }
    if (sub !== 'verify')
      throw new UsageError(
        `unknown audit command "${sub}"`,
        'use: lore audit verify [--checkpoints FILE] or lore audit checkpoint FILE',
      );
    if (file)
      throw new UsageError(
        `lore audit verify got unexpected argument(s): ${file}`,
        'use: lore audit verify [--checkpoints FILE]',
      );
    const checkpoints = typeof v.checkpoints === 'string' ? readCheckpoints(v.checkpoints) : [];
    const verdict = await ctx.withEngine((engine) => engine.verifyAudit(checkpoints));
    ctx.print(verdict, (r: AuditVerdict) =>
      r.ok
        ? `audit chain intact: ${r.events} events, head ` +
          `${r.head}${checkpoints.length ? `; ${checkpoints.length} checkpoint(s) match` : ''}`
        : [
            `audit chain BROKEN (${r.problems.length} problem(s) in ${r.events} events):`,
            ...r.problems.map((p) => `  event ${p.seq}: ${p.problem}`),
          ].join('\n'),
    );
    return verdict.ok ? 0 : 1;
  },
};

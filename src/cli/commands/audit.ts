// `lore audit verify`: recompute the audit chain and report any break.

import type { AuditVerdict } from '../../engine';
import type { Command } from '../command';
import { UsageError } from '../parse';

export const auditCommand: Command = {
  name: 'audit',
  summary: 'verify the audit chain of every write',
  usage: 'lore audit verify',
  options: {},
  positionals: { min: 1, max: 1, names: 'verify' },
  async run(ctx, _v, [sub]) {
    if (sub !== 'verify') throw new UsageError(`unknown audit command "${sub}"`, 'use: lore audit verify');
    const verdict = await ctx.withEngine((engine) => engine.verifyAudit());
    ctx.print(verdict, (r: AuditVerdict) =>
      r.ok
        ? `audit chain intact: ${r.events} events, head ${r.head}`
        : [`audit chain BROKEN (${r.problems.length} problem(s) in ${r.events} events):`, ...r.problems.map((p) => `  event ${p.seq}: ${p.problem}`)].join('\n'),
    );
    return verdict.ok ? 0 : 1;
  },
};

// `lore forget KEY`: the hard delete, with a receipt. Final.

import type { ForgetReceipt } from '../../engine';
import type { Command } from '../command';

export const forgetCommand: Command = {
  name: 'forget',
  summary: 'delete a memory and every trace of its content (final; prints a receipt)',
  usage: 'lore forget KEY',
  options: {},
  positionals: { min: 1, max: 1, names: 'KEY' },
  async run(ctx, _v, [key]) {
    const receipt = await ctx.withEngine((engine) => engine.forget(ctx.actor(), key));
    ctx.print({ receipt }, ({ receipt: r }: { receipt: ForgetReceipt }) =>
      [
        `forgot ${r.key}: ${r.versions_removed} version(s) removed at ${r.forgotten_at}`,
        ...r.digests.map((d) => `  sha256 ${d}`),
        `audit event ${r.audit_seq}`,
      ].join('\n'),
    );
    return 0;
  },
};

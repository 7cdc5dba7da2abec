// `lore doctor --repair`: a person restores the values Lore sealed in rows edited outside it. The
// differences are shown field by field (sealed → found); the person types the one-time code shown
// on their own terminal (personAct.ts), and only then are the sealed values written back — never
// the edited ones sealed. A script, a pipe or an agent (MCP has no such tool) cannot do it. Rows
// whose seal itself was edited have nothing trustworthy to restore: they are listed with what to do.

import { LoreError, describeProblem, problemsDigest, type RepairResult, type SealProblem } from '../../engine';
import { cliActor, type CommandContext } from '../command';
import { DeclinedByPerson, terminalConfirmer } from '../personAct';
import { terminalSafe } from '../terminalText';

function listed(problems: readonly SealProblem[]): string {
  return problems.map((p) => `  ${terminalSafe(describeProblem(p))}`).join('\n');
}

export async function repairSealed(ctx: CommandContext): Promise<number> {
  if (!ctx.interactive) {
    throw new LoreError(
      'HUMAN_ONLY',
      'doctor --repair asks a person to confirm, and this is not an interactive terminal',
      'run `lore doctor --repair` yourself in a terminal',
    );
  }
  const problems = await ctx.withEngine((engine) => engine.sealProblems(), { create: false });
  const repairable = problems.filter((p) => p.repairable);
  const left = problems.filter((p) => !p.repairable);
  if (!repairable.length) {
    ctx.print({ repaired: false, restored: [], left }, () =>
      left.length
        ? `nothing Lore can restore; these rows have no trusted sealed values:\n${listed(left)}\n` +
          'forget those records, or restore them from an export'
        : 'every sealed row matches its seal; nothing to repair',
    );
    return left.length ? 1 : 0;
  }
  const actor = cliActor(true);
  const shown = problemsDigest(problems);
  const question =
    `These rows were changed outside Lore (field: sealed value → value found):\n${listed(repairable)}\n` +
    `Restore the sealed values? Type the code shown above (Enter: no): `;
  const confirmer = terminalConfirmer(ctx, 'doctor --repair', question);
  let result: RepairResult;
  try {
    result = await ctx.withEngine((engine) => engine.repairSeals(actor, shown), {
      create: false,
      person: { op: 'repairSeals', args: [actor, shown], confirmer },
    });
  } catch (error) {
    if (!(error instanceof DeclinedByPerson)) throw error;
    ctx.print({ repaired: false, restored: [], left }, () => 'nothing restored');
    return 1;
  }
  ctx.print({ repaired: true, ...result }, (r) =>
    [
      ...r.restored.map((x) => `restored ${terminalSafe(x.row)}: ${x.fields.join(', ')}`),
      ...r.left.map(
        (x) => `left ${terminalSafe(x.row)}: ${terminalSafe(x.reason)} (forget it, or restore it from an export)`,
      ),
    ].join('\n'),
  );
  return result.left.length ? 1 : 0;
}

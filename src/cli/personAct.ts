// The terminal side of a person's act (promote, trust add): the code is shown on this command's own
// terminal — by the owner when one serves the store, else by this process — and the person types it
// back. A script that answers "y" to a prompt never typed it; a command with no terminal is refused.
// The owner side and what stays possible for a process of the same user: src/host/personConfirm.ts.

import { LoreError } from '../engine';
import { codeLine, newCode, ownTerminal, sameCode, showOnTerminal, type PersonConfirmer } from '../host/personConfirm';
import type { CommandContext } from './command';

/** The act a person is asked to confirm, as the engine op and its arguments travel. */
export interface PersonAct {
  op: string;
  args: unknown[];
  confirmer: PersonConfirmer;
}

/** Thrown when the person leaves the code empty or says no: the command says "not promoted", not an error. */
export class DeclinedByPerson extends Error {}

/**
 * The confirmer for this command's terminal: `question` is asked after the code is shown; an empty
 * answer or "n" declines. Refused when stdin is not a terminal this process can name.
 */
export function terminalConfirmer(ctx: CommandContext, what: string, question: string): PersonConfirmer {
  const tty = ctx.interactive ? ownTerminal() : null;
  if (!tty)
    throw new LoreError(
      'HUMAN_ONLY',
      `${what} asks a person to confirm, and this is not an interactive terminal`,
      'run the command yourself in a terminal',
    );
  return {
    channel: { tty },
    code: async () => {
      const typed = (await ctx.ask(question)).trim();
      if (!typed || /^n(o)?$/i.test(typed)) throw new DeclinedByPerson();
      return typed;
    },
  };
}

/** A person's act run by this process itself (no owner serves): the same code, made and checked here. */
export async function confirmHere(act: PersonAct): Promise<void> {
  const { channel } = act.confirmer;
  if (!('tty' in channel)) throw new LoreError('HUMAN_ONLY', 'no terminal to show the confirmation code on');
  const code = newCode();
  showOnTerminal(channel.tty, codeLine(act.op, act.args, code));
  if (!sameCode(await act.confirmer.code('here'), code))
    throw new LoreError(
      'HUMAN_ONLY',
      'the code typed is not the one shown, so nothing was done',
      'run the command again and type the code it shows',
    );
}

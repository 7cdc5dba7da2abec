// `lore promote KEY`: a person lets a quarantined record into recall. It shows a one-time code on
// its own terminal and runs only when the person types it back (personAct.ts); it refuses without a
// terminal, and a script that answers "y" is refused: an agent or script must never be able to do this.

import { LoreError, type GetResult, type LifecycleResult } from '../../engine';
import { cliActor, type Command } from '../command';
import { DeclinedByPerson, terminalConfirmer } from '../personAct';
import { quotedField } from '../terminalText';

export const promoteCommand: Command = {
  name: 'promote',
  summary: 'let a quarantined memory into recall (asks you to confirm; interactive terminals only)',
  usage: 'lore promote KEY',
  options: {},
  positionals: { min: 1, max: 1, names: 'KEY' },
  async run(ctx, _v, [key]) {
    if (!ctx.interactive) {
      throw new LoreError(
        'HUMAN_ONLY',
        'promote asks a person to confirm, and this is not an interactive terminal',
        `run \`lore promote ${key}\` yourself in a terminal`,
      );
    }
    const shown = await ctx.withEngine((engine) => engine.get(key));
    const actor = cliActor(true);
    const question =
      describe(shown) + `\nPromote ${key} from quarantine into recall? Type the code shown above (Enter: no): `;
    const confirmer = terminalConfirmer(ctx, 'promote', question);
    let result: LifecycleResult;
    try {
      result = await ctx.withEngine((engine) => engine.promote(actor, key), {
        create: false,
        person: { op: 'promote', args: [actor, key], confirmer },
      });
    } catch (error) {
      if (!(error instanceof DeclinedByPerson)) throw error;
      ctx.print({ promoted: false, key }, () => 'not promoted');
      return 1;
    }
    ctx.print({ promoted: true, ...result }, (r: LifecycleResult) => `${r.key}: ${r.previous_status} → ${r.status}`);
    return 0;
  },
};

/**
 * What the person confirms. Lore's own facts (key, version, status, where the record came from)
 * come first, each on its own labelled line; every field a writer chose (the client's name too) is
 * shown quoted and escaped on one line, so no field can draw a line that looks like Lore's own.
 */
function describe({ memory: m }: GetResult): string {
  const from = m.provenance;
  return [
    `record:      ${quotedField(m.key)} (version ${m.version}, now ${m.status})`,
    `saved from:  ${from.source}${from.client ? ` by client ${quotedField(from.client)}` : ''}` +
      `${from.agent ? `, agent ${quotedField(from.agent)}` : ''}`,
    `title:       ${quotedField(m.title)}`,
    `description: ${quotedField(m.description)}`,
  ].join('\n');
}

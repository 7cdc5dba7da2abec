// `lore trust [list] | key | add KEY [--label NAME] | remove KEY_ID`: which authors' records this
// store imports without quarantine. Adding trust asks a person on an interactive terminal.

import { keyIdOf, LoreError, type AuthorInfo, type TrustList } from '../../engine';
import { storePaths } from '../../host/dataDir';
import { loadMachineSigner } from '../../host/machineKey';
import { quotedField } from '../terminalText';
import { cliActor, type Command } from '../command';
import { DeclinedByPerson, terminalConfirmer } from '../personAct';
import { stringOption, UsageError } from '../parse';

export const trustCommand: Command = {
  name: 'trust',
  summary: "list the authors this store knows, show this machine's key, or trust / stop trusting an author",
  usage:
    'lore trust [list] | lore trust key | lore trust add KEY_ID|PUBLIC_KEY [--label NAME] | lore trust remove KEY_ID',
  options: { label: { type: 'string' } },
  positionals: { min: 0, max: 2, names: '[list | key | add KEY | remove KEY_ID]' },
  async run(ctx, v, [sub = 'list', key]) {
    if (sub === 'list') {
      if (key) throw new UsageError(`lore trust list got unexpected argument(s): ${key}`);
      const list = await ctx.withEngine((engine) => engine.trustedKeys());
      ctx.print(list, renderList);
      return 0;
    }
    if (sub === 'key') {
      const signer = loadMachineSigner(storePaths(ctx.workspace).home);
      const mine = { key_id: signer.keyId, public_key: signer.publicKey };
      ctx.print(mine, (m) => `${m.key_id}\n${m.public_key}\nteammates trust it with: lore trust add ${m.public_key}`);
      return 0;
    }
    if (!key) throw new UsageError(`lore trust ${sub} needs a key`, `usage: ${trustCommand.usage}`);
    if (sub === 'remove') {
      const author = await ctx.withEngine((engine) => engine.distrustAuthor(ctx.actor(), key));
      ctx.print(
        author,
        (a) =>
          `${a.key_id} is not trusted here any more; its later imports land ` +
          `quarantined (records already here stay as they are)`,
      );
      return 0;
    }
    if (sub !== 'add') throw new UsageError(`unknown trust command "${sub}"`, `usage: ${trustCommand.usage}`);
    if (!ctx.interactive) {
      throw new LoreError(
        'HUMAN_ONLY',
        'trusting an author asks a person to confirm, and this is not an interactive terminal',
        `run \`lore trust add ${key}\` yourself in a terminal`,
      );
    }
    const shown = key.startsWith('ed25519:') ? key : safeKeyId(key);
    const question =
      `Trust ${quotedField(shown)}${stringOption(v.label) ? ` (label ${quotedField(stringOption(v.label))})` : ''}? ` +
      `Records it signs will be imported into recall without ` +
      `quarantine. Type the code shown above (Enter: no): `;
    const actor = cliActor(true);
    const label = stringOption(v.label);
    const confirmer = terminalConfirmer(ctx, 'trusting an author', question);
    let author: AuthorInfo;
    try {
      author = await ctx.withEngine((engine) => engine.trustAuthor(actor, key, label), {
        create: true,
        person: { op: 'trustAuthor', args: [actor, key, label], confirmer },
      });
    } catch (error) {
      if (!(error instanceof DeclinedByPerson)) throw error;
      ctx.print({ trusted: false, key: shown }, () => 'not trusted');
      return 1;
    }
    ctx.print(author, (a) => `trusted ${a.key_id}${a.label ? ` (${a.label})` : ''}`);
    return 0;
  },
};

function safeKeyId(publicKey: string): string {
  return /^[A-Za-z0-9+/=]+$/.test(publicKey) ? keyIdOf(publicKey) : publicKey.slice(0, 40);
}

function renderList(list: TrustList): string {
  const row = (a: AuthorInfo) =>
    `${a.key_id}  ` +
    `${a.this_machine ? 'this machine' : a.trusted ? 'trusted' : 'not trusted'} ` +
    ` ${a.records} ` +
    `record(s)${a.label && !a.this_machine ? `  ${a.label}` : ''}`;
  const others = list.authors.filter((a) => !a.this_machine);
  return [
    `this machine: ${list.this_machine.key_id}`,
    ...(others.length ? others.map(row) : ['no other authors yet: they arrive with imports and .lore/ records']),
  ].join('\n');
}

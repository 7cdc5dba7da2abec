// `lore inbox [--all]` and `lore inbox resolve ID --action A [--note S]`: what the steward and
// closed sessions left for a person, and resolving it. Applying a queued session proposal (add,
// merge, supersede, promote) is accepting a risky plan item: it asks, on an interactive terminal only.

import {
  INBOX_ACTIONS,
  LoreError,
  describeInboxAction,
  type InboxAction,
  type InboxItem,
  type InboxList,
  type ResolveResult,
} from '../../engine';
import { cliActor, type Command } from '../command';
import { DeclinedByPerson, terminalConfirmer } from '../personAct';
import { stringOption, UsageError } from '../parse';

export const inboxCommand: Command = {
  name: 'inbox',
  summary: 'list what waits for a person (steward findings, session proposals), or resolve an item',
  usage:
    `lore inbox [--all] | lore inbox resolve ID --action A [--note S] ` +
    `  (A: ${INBOX_ACTIONS.join(', ')}; each item lists the ones it ` +
    `takes)`,
  options: { all: { type: 'boolean' }, action: { type: 'string' }, note: { type: 'string' } },
  positionals: { min: 0, max: 2, names: '[resolve ID]' },
  async run(ctx, v, [sub, id]) {
    if (sub === undefined) {
      if (v.action !== undefined || v.note !== undefined)
        throw new UsageError('--action and --note go with: lore inbox resolve ID --action A');
      const list = await ctx.withEngine((engine) => engine.inbox({ state: v.all === true ? 'all' : 'open' }));
      ctx.print(list, renderList);
      return 0;
    }
    if (sub !== 'resolve')
      throw new UsageError(`unknown inbox command "${sub}"`, 'use: lore inbox, or lore inbox resolve ID --action A');
    if (!id || !/^\d+$/.test(id))
      throw new UsageError("lore inbox resolve needs the item's ID (a number shown by lore inbox)");
    const action = stringOption(v.action);
    if (!action)
      throw new UsageError(
        'lore inbox resolve needs --action',
        `one of ${INBOX_ACTIONS.join(', ')}; the item lists the ones it takes`,
      );
    if (!(INBOX_ACTIONS as readonly string[]).includes(action))
      throw new UsageError(`--action must be one of ${INBOX_ACTIONS.join(', ')}; got "${action}"`);
    const note = stringOption(v.note);

    const item = (await ctx.withEngine((engine) => engine.inbox({ state: 'all' }))).items.find(
      (i) => i.id === Number(id),
    );
    let actor = ctx.actor();
    if (
      item &&
      item.kind === 'session' &&
      action !== 'dismiss' &&
      item.actions.includes(action as InboxItem['actions'][number])
    ) {
      if (!ctx.interactive) {
        throw new LoreError(
          'HUMAN_ONLY',
          `applying a session proposal asks a person to confirm, and this is not an interactive terminal`,
          `run \`lore inbox resolve ${id} --action ${action}\` yourself in a terminal`,
        );
      }
      actor = cliActor(true);
      const question = `${describe(item)}\n${action} as proposed? Type the code shown above (Enter: no): `;
      const confirmer = terminalConfirmer(ctx, 'applying a session proposal', question);
      const args = [actor, Number(id), action, note ?? null];
      try {
        const result = await ctx.withEngine((engine) => engine.resolveInbox(actor, Number(id), action, note ?? null), {
          create: false,
          person: { op: 'resolveInbox', args, confirmer },
        });
        ctx.print(result, renderResolve);
        return 0;
      } catch (error) {
        if (!(error instanceof DeclinedByPerson)) throw error;
        ctx.print({ resolved: false, id: Number(id) }, () => 'not resolved');
        return 1;
      }
    }
    const result = await ctx.withEngine((engine) => engine.resolveInbox(actor, Number(id), action, note ?? null));
    ctx.print(result, renderResolve);
    return 0;
  },
};

function describe(item: InboxItem): string {
  const lines = [`#${item.id} [${item.risk}] ${item.kind}: ${item.summary}`];
  for (const [name, value] of Object.entries(item.evidence)) {
    if (name === 'sessions') continue;
    lines.push(`    ${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  const sessions = item.evidence.sessions;
  if (Array.isArray(sessions) && sessions.length > 1) {
    const named = sessions.map((s: { kind: string; id: string | null }) => `${s.id ?? 'unnamed'} (${s.kind})`);
    lines.push(`    from ${sessions.length} sessions: ${named.join(', ')}`);
  }
  const c = item.proposal?.candidate;
  if (c) lines.push(`    candidate: ${c.type} "${c.title}" — ${c.description} (source ${c.provenance.source})`);
  return lines.join('\n');
}

function renderList(list: InboxList): string {
  if (!list.items.length)
    return list.total
      ? `the Inbox is empty (${list.total} item(s) resolved or dismissed; --all shows them)`
      : 'the Inbox is empty';
  const items = list.items.map((item) => {
    const state =
      item.state === 'open' ? '' : `  (${item.state}: ${item.resolution?.action} by ${item.resolution?.by})`;
    const offered = (a: InboxAction) =>
      `${describeInboxAction(item, a)}${a === item.suggested_action ? ' (suggested)' : ''}`;
    return `${describe(item)}${state}\n    actions: ${item.actions.map(offered).join(', ')}`;
  });
  return [...items, `${list.open} open; resolve one with: lore inbox resolve ID --action A`].join('\n');
}

function renderResolve(r: ResolveResult): string {
  const changed = r.changed.length ? `; changed ${r.changed.join(', ')}` : '';
  return `#${r.item.id} ${r.item.state} (${r.item.resolution?.action})${changed}`;
}

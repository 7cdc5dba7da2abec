// `lore kind set PATH|GLOB KIND | list | remove PATH|GLOB`: a person's correction of document
// kinds, kept in the committed `.lore/kinds` so the team shares it. set and remove write the file
// and index (through the store's owner when one runs), so the store shows the kind when they return.

import { existsSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { DOC_KINDS } from '../../engine';
import { storePaths } from '../../host/dataDir';
import type { KindChange, KindRuleList } from '../../host/kindFile';
import type { Command, CommandContext } from '../command';
import { UsageError } from '../parse';

const USAGE = 'lore kind set PATH|GLOB KIND | lore kind list | lore kind remove PATH|GLOB';

export const kindCommand: Command = {
  name: 'kind',
  summary: "set a document's kind yourself (shared with the team in .lore/kinds), list or remove those rules",
  usage:
    `${USAGE}   (a GLOB is relative to the workspace root, e.g. "docs/operations/**", and the last rule that ` +
    `matches a file wins; KIND is one of ${DOC_KINDS.join(', ')}, and names such as "ADR" or "Runbooks" work)`,
  options: {},
  positionals: { min: 1, max: 3, names: 'set PATH|GLOB KIND | list | remove PATH|GLOB' },
  async run(ctx, _v, [sub, target, kind]) {
    const root = storePaths(ctx.workspace).workspaceRoot;
    if (sub === 'list') {
      if (target) throw new UsageError(`lore kind list takes no arguments; got ${target}`, `usage: ${USAGE}`);
      const list = await ctx.withEngine((engine) => engine.listKinds(root));
      ctx.print(list, renderList);
      return 0;
    }
    if (sub === 'set') {
      if (!target || !kind)
        throw new UsageError('lore kind set needs a path or glob and a kind', 'e.g. lore kind set docs/ops/** runbook');
      const change = await ctx.withEngine((engine) => engine.setKind(root, rootRelative(ctx, root, target), kind), {
        create: true,
        embed: true,
      });
      ctx.print(change, renderChange);
      return 0;
    }
    if (sub === 'remove') {
      if (!target) throw new UsageError('lore kind remove needs the path or glob of a rule', 'see: lore kind list');
      if (kind) throw new UsageError(`lore kind remove takes one path or glob; got also ${kind}`);
      const change = await ctx.withEngine((engine) => engine.removeKind(root, rootRelative(ctx, root, target)), {
        create: true,
        embed: true,
      });
      ctx.print(change, renderChange);
      return 0;
    }
    throw new UsageError(`unknown kind command "${sub}"`, `usage: ${USAGE}`);
  },
};

/**
 * A file named from where the command runs (`./restore.md` in docs/, or an absolute path) becomes
 * workspace-relative; anything else is a glob, relative to the workspace root as the file keeps it.
 */
function rootRelative(ctx: CommandContext, root: string, target: string): string {
  const asFile = resolve(ctx.workspace, target);
  const inside = relative(root, asFile);
  const isFile = existsSync(asFile) && statSync(asFile).isFile();
  if (isFile && inside && !isAbsolute(inside) && !inside.split(sep).includes('..')) return inside.split(sep).join('/');
  return target.replace(/^\.\//, '');
}

function renderChange(c: KindChange): string {
  const files = `${c.files} file${c.files === 1 ? '' : 's'}`;
  const head =
    c.kind === null
      ? `removed "${c.glob}" from ${c.file}: its ${files} get the kind Lore finds again`
      : `${c.file}: "${c.glob}" is ${c.kind} (${files})`;
  return [
    `${head}; ${c.reclassified} document(s) re-classified`,
    `index by kind: ${
      Object.entries(c.status.by_kind)
        .map(([k, n]) => `${n} ${k}`)
        .join(', ') || 'none'
    }`,
    `commit ${c.file} to share it with your team`,
  ].join('\n');
}

function renderList(list: KindRuleList): string {
  const lines = list.rules.length
    ? list.rules.map(
        (r) =>
          `line ${String(r.line).padEnd(4)} ${r.glob} → ${r.kind}  ` +
          `(${r.matches} indexed document(s) match, ${r.decides} decided by this rule)`,
      )
    : [`no kind rules${list.exists ? ` in ${list.file}` : ` (${list.file} does not exist)`}`];
  for (const p of list.problems) lines.push(`${list.file}${p.line ? ` line ${p.line}` : ''}: ${p.message} (ignored)`);
  return lines.join('\n');
}

// `lore index [--full]`: bring the workspace index up to date (only changed files unless --full)
// and print what changed and the index status. `lore index --explain PATH`: the kind the index
// gives one file and the signals that decided it (nothing is written).

import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { storePaths } from '../../host/dataDir';
import { WorkspaceFileSource } from '../../host/fileSource';
import { explainKind, renderKindExplanation, type IndexStatus, type IndexSummary } from '../../engine';
import type { Command } from '../command';

export const indexCommand: Command = {
  name: 'index',
  summary: "index the workspace's docs and infrastructure files (changed files only unless --full)",
  usage: 'lore index [--full] | lore index --explain PATH',
  options: { full: { type: 'boolean' }, explain: { type: 'string' } },
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx, v) {
    const root = storePaths(ctx.workspace).workspaceRoot;
    if (typeof v.explain === 'string') {
      // A path as the shell completes it (from the current folder) or relative to the workspace root.
      const fromCwd = relative(root, resolve(v.explain));
      const path = existsSync(resolve(v.explain)) && !fromCwd.startsWith('..') ? fromCwd : v.explain;
      ctx.print(await explainKind(new WorkspaceFileSource(root), path), (e) => renderKindExplanation(e));
      return 0;
    }
    const controller = new AbortController();
    const stop = () => controller.abort();
    process.once('SIGINT', stop);
    try {
      const result = await ctx.withEngine(
        (engine) =>
          engine.indexWorkspace(root, { full: v.full === true, signal: controller.signal }, (p) => {
            if (!ctx.json && process.stderr.isTTY) process.stderr.write(`\r${p.phase} ${p.done}/${p.total}`.padEnd(40));
          }),
        { create: true, embed: true },
      );
      if (!ctx.json && process.stderr.isTTY) process.stderr.write('\r'.padEnd(41) + '\r');
      ctx.print(result, renderIndex);
      return result.summary.cancelled ? 130 : 0;
    } finally {
      process.removeListener('SIGINT', stop);
    }
  },
};

function renderIndex({ summary: s, status }: { summary: IndexSummary; status: IndexStatus }): string {
  const lines = [
    `${s.cancelled ? 'cancelled: ' : ''}${s.files} files: ` +
      `${s.indexed} indexed, ${s.renamed} renamed, ${s.deleted} ` +
      `removed, ${s.unchanged} ` +
      `unchanged${s.redactions ? `; ${s.redactions} secret(s) redacted` : ''}` +
      (s.skipped ? `; ${s.skipped} skipped (binary, past the size cap, or now a link)` : ''),
    `index: ${status.files} files, ${status.chunks} chunks (${
      Object.entries(status.by_kind)
        .map(([k, n]) => `${n} ${k}`)
        .join(', ') || 'none'
    })`,
    status.model
      ? `model: ${status.model}; ${s.embedded} embedded, ${status.pending} pending`
      : `model: none (${status.model_problem}); recall is lexical only`,
  ];
  const k = s.kind_rules;
  if (k?.reclassified) lines.push(`.lore/kinds: ${k.reclassified} document(s) re-classified by its rules`);
  for (const p of k?.problems ?? [])
    lines.push(`.lore/kinds${p.line ? ` line ${p.line}` : ''}: ${p.message} (ignored)`);
  const r = s.records;
  if (r) {
    const quarantined = r.quarantined.length
      ? ` (${r.quarantined.length} quarantined: lore promote KEY after review)`
      : '';
    lines.push(
      `.lore/ records: ${r.files} file(s): ${r.imported.length} imported${quarantined}, ${r.unchanged} unchanged`,
    );
    for (const c of r.conflicts)
      lines.push(
        `  kept yours: ${c.key} was edited here; ${c.path} differs (write ` +
          `yours back with: lore canonicalize ${c.key} --as record)`,
      );
    for (const x of r.refused) lines.push(`  REFUSED ${x.path}: ${x.reason}`);
  }
  return lines.join('\n');
}

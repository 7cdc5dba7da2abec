// `lore import FILE [--dry-run] [--replace]`: verify a signed bundle completely, then import all of
// it or nothing. Records by authors this store does not trust land quarantined.

import { readFileSync } from 'node:fs';
import type { Actor, ImportResult } from '../../engine';
import { cliActor, type Command } from '../command';
import { UsageError } from '../parse';

export const importCommand: Command = {
  name: 'import',
  summary: 'import a signed bundle: every record and the bundle must verify, or nothing is imported',
  usage: 'lore import FILE|- [--dry-run] [--replace]',
  options: { 'dry-run': { type: 'boolean' }, replace: { type: 'boolean' } },
  positionals: { min: 1, max: 1, names: 'FILE' },
  async run(ctx, v, [file]) {
    let text: string;
    try {
      text = readFileSync(file === '-' ? 0 : file, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    const dryRun = v['dry-run'] === true;
    const actor: Actor = { door: 'import', name: cliActor().name };
    const result = await ctx.withEngine((engine) => engine.importBundle(actor, text, { dryRun, replace: v.replace === true }), { create: !dryRun });
    ctx.print(result, renderImport);
    return 0;
  },
};

function renderImport(r: ImportResult): string {
  const source = `bundle from store ${r.bundle.store_id}, signed by ${r.bundle.signer}, ${r.bundle.records} record(s)`;
  const lines = r.dry_run
    ? [`dry run, nothing written: ${source} verified`, `would create ${r.created}, replace ${r.replaced}; ${r.unchanged} unchanged`]
    : [`imported ${source}: ${r.created} created, ${r.replaced} replaced, ${r.unchanged} unchanged`];
  for (const item of r.items) if (item.action !== 'unchanged') lines.push(`  ${item.action.padEnd(8)} ${item.key} (${item.status}; by ${item.author}${item.author_known ? '' : ', not trusted here'})`);
  if (r.conflicts.length) lines.push(`${r.conflicts.length} record(s) differ from yours; import with --replace to take the bundle's versions (yours are archived)`);
  if (r.quarantined.length) {
    const untrusted = [...new Set(r.items.filter((i) => !i.author_known).map((i) => i.author))];
    lines.push(`${r.quarantined.length} record(s) ${r.dry_run ? 'would stay' : 'stay'} out of recall until you review and promote them: lore get KEY, then lore promote KEY`);
    if (untrusted.length) lines.push(`to trust their author for later imports: ${untrusted.map((a) => `lore trust add ${a}`).join('; ')}`);
  }
  return lines.join('\n');
}

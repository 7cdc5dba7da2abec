// `lore import FILE [--dry-run] [--replace]`: verify a signed bundle completely, then import all of
// it or nothing. Records by authors this store does not trust land quarantined.

import { readFileSync, statSync } from 'node:fs';
import { LoreError, MAX_BUNDLE_CHARS, type Actor, type ImportResult } from '../../engine';
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
      // Refused at the door: a huge file is not read into memory only to be refused by the engine.
      const size = file === '-' ? 0 : statSync(file).size;
      if (size > MAX_BUNDLE_CHARS * 3) {
        throw new LoreError(
          'LIMIT_EXCEEDED',
          `${file} is ${size} bytes; a bundle is at most ${MAX_BUNDLE_CHARS} characters (64 MiB)`,
          'export fewer records per bundle (--type, --status, --basis)',
        );
      }
      text = readFileSync(file === '-' ? 0 : file, 'utf8');
    } catch (error) {
      if (error instanceof LoreError) throw error;
      throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    const dryRun = v['dry-run'] === true;
    const actor: Actor = { door: 'import', name: cliActor().name };
    const result = await ctx.withEngine(
      (engine) => engine.importBundle(actor, text, { dryRun, replace: v.replace === true }),
      { create: !dryRun },
    );
    ctx.print(result, renderImport);
    return 0;
  },
};

function renderImport(r: ImportResult): string {
  const source = `bundle from store ${r.bundle.store_id}, signed by ${r.bundle.signer}, ${r.bundle.records} record(s)`;
  const lines = r.dry_run
    ? [
        `dry run, nothing written: ${source} verified`,
        `would create ${r.created}, replace ${r.replaced}; ${r.unchanged} unchanged`,
      ]
    : [`imported ${source}: ${r.created} created, ${r.replaced} replaced, ${r.unchanged} unchanged`];
  for (const item of r.items)
    if (item.action !== 'unchanged')
      lines.push(
        `  ${item.action.padEnd(8)} ${item.key} (${item.status}; by ` +
          `${item.author}${item.author_known ? '' : ', not trusted here'})`,
      );
  const older = r.items.filter((i) => i.action === 'older').length;
  if (older)
    lines.push(
      `${older} record(s) are older versions of ones this store already has from the same origin; they were left out`,
    );
  if (r.conflicts.length)
    lines.push(
      `${r.conflicts.length} record(s) differ from yours; import with ` +
        `--replace to take the bundle's versions (yours are archived)`,
    );
  if (r.quarantined.length) {
    const untrusted = [...new Set(r.items.filter((i) => !i.author_known).map((i) => i.author))];
    for (const reason of new Set(r.items.map((i) => i.quarantine_reason).filter((x) => x !== undefined)))
      lines.push(`  quarantined: ${reason}`);
    lines.push(
      `${r.quarantined.length} record(s) ` +
        `${r.dry_run ? 'would stay' : 'stay'} out of recall until you ` +
        `review and promote them: lore get KEY, then lore promote KEY`,
    );
    if (untrusted.length)
      lines.push(`to trust their author for later imports: ${untrusted.map((a) => `lore trust add ${a}`).join('; ')}`);
  }
  return lines.join('\n');
}

// `lore export instructions --format agents-md|claude-md|cursor-rules`: writes the live, verified,
// non-contradicted dead ends, decisions and conventions, each with its anchor, as Lore's own block
// in AGENTS.md, CLAUDE.md or .cursor/rules/lore.mdc. Only that block is replaced; a file is created
// when absent and left untouched when its block is already what it would write. Says what it wrote.

import { INSTRUCTION_FORMATS, renderInstructions, type InstructionFormat } from '../../engine';
import { storePaths } from '../../host/dataDir';
import type { CommandContext } from '../command';
import { instructionRecords, writeInstructions, type InstructionWrite } from '../instructionsFile';
import { listOption, UsageError } from '../parse';

export const EXPORT_INSTRUCTIONS_USAGE =
  'lore export instructions --format agents-md|claude-md|cursor-rules [--format …]   ' +
  "(writes Lore's block into AGENTS.md, CLAUDE.md or .cursor/rules/lore.mdc)";

function formatsOf(value: unknown): InstructionFormat[] {
  const formats = listOption(value) ?? [];
  if (!formats.length) throw new UsageError('lore export instructions needs --format', EXPORT_INSTRUCTIONS_USAGE);
  for (const f of formats)
    if (!(INSTRUCTION_FORMATS as readonly string[]).includes(f))
      throw new UsageError(`--format must be one of ${INSTRUCTION_FORMATS.join(', ')}; got "${f}"`);
  return [...new Set(formats)] as InstructionFormat[];
}

export async function exportInstructions(ctx: CommandContext, values: Record<string, unknown>): Promise<number> {
  const formats = formatsOf(values.format);
  const root = storePaths(ctx.workspace).workspaceRoot;
  const records = await ctx.withEngine((engine) => instructionRecords(engine), { create: false, symbols: true });
  const block = renderInstructions(records);
  const written = formats.map((format) => writeInstructions(root, format, block));
  ctx.print({ written }, (r) => r.written.map(describe).join('\n'));
  return 0;
}

const VERB = { created: 'created with', added: 'added', updated: 'replaced', unchanged: '' };

function describe(w: InstructionWrite): string {
  const what =
    w.outcome === 'unchanged'
      ? `${w.path}: Lore's block already up to date (${w.included.length} record(s)); not rewritten`
      : `${w.path}: ${VERB[w.outcome]} Lore's block ` +
        `(${w.included.length} record(s), ${w.bytes} bytes); the rest of the file is as it was`;
  const listed = w.included.map((k) => `  + ${k}`);
  const left = w.left_out.map((l) => `  - ${l.key}: left out (${l.why})`);
  return [what, ...listed, ...left].join('\n');
}

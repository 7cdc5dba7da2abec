// `lore check --base REF [--format text|sarif|github]`: the pull-request gate. Indexes the working
// tree, scans references (documents and memory anchors), and reports only what the change between
// REF and the working tree breaks or makes stale (what resolved at REF is read from REF's own files,
// so a fresh store knows it too); exit 1 when it breaks something. Lore's block in
// AGENTS.md, CLAUDE.md or .cursor/rules/lore.mdc is compared with what export would write now.

import { DRIFT_STATES, LORE_VERSION, type DriftFinding } from '../../engine';
import { storePaths } from '../../host/dataDir';
import { changedSince, textAt } from '../../host/gitDiff';
import {
  renderGithub,
  renderSarif,
  renderText,
  selectNew,
  staleInstructionFindings,
  type CheckReport,
} from '../checkReport';
import { heldAtBase, mayBreakHeld } from '../checkBase';
import { instructionBlockLines, instructionRecords, staleInstructions } from '../instructionsFile';
import type { Command } from '../command';
import { UsageError } from '../parse';

const FORMATS = ['text', 'sarif', 'github'] as const;

export const checkCommand: Command = {
  name: 'check',
  summary: 'pull-request gate: what the change since --base breaks or makes stale (exit 1 when it breaks something)',
  usage: 'lore check --base REF [--format text|sarif|github]',
  options: { base: { type: 'string' }, format: { type: 'string' } },
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx, v) {
    const base = v.base as string | undefined;
    if (!base) throw new UsageError('lore check needs --base REF', 'e.g. lore check --base origin/main');
    const format = (v.format as string | undefined) ?? 'text';
    if (!(FORMATS as readonly string[]).includes(format))
      throw new UsageError(`--format must be one of ${FORMATS.join(', ')}; got "${format}"`);
    const root = storePaths(ctx.workspace).workspaceRoot;
    let changed: ReturnType<typeof changedSince>;
    try {
      changed = changedSince(root, base);
    } catch (error) {
      // A base that cannot be compared is a usage error (exit 2), never "something broke" (exit 1).
      throw new UsageError((error as Error).message, 'give a revision git knows, e.g. origin/main or HEAD~1');
    }
    // Read first, from the base's own files: what held there, whatever this workspace's store has seen.
    const held = mayBreakHeld(changed) ? await heldAtBase(root, base, changed) : undefined;
    const { findings, decisionDocs, instructions } = await ctx.withEngine(
      async (engine) => {
        await engine.indexWorkspace(root, { full: false }, () => undefined);
        await engine.driftScan();
        const decisions = new Set<string>();
        for (let offset: number | null = 0; offset !== null;) {
          const page = await engine.listDocs({ kinds: ['adr', 'rfc'], limit: 200, offset });
          page.items.forEach((d) => decisions.add(d.path));
          offset = page.next_offset;
        }
        return {
          findings: await engine.driftFindings({ states: [...DRIFT_STATES] }),
          decisionDocs: decisions,
          instructions: await instructionRecords(engine, false),
        };
      },
      { create: true, symbols: true },
    );
    const renamedFrom = new Map([...changed.renamed].map(([from, to]) => [to, from]));
    const existedBefore = (f: DriftFinding) => {
      const path = f.source.path!;
      const before = textAt(root, base, renamedFrom.get(path) ?? path);
      return before !== null && before.includes(f.reference.raw);
    };
    const blocks = instructionBlockLines(root);
    const inOwnBlock = (path: string, line: number) => {
      const lines = blocks.get(path);
      return lines !== undefined && line >= lines[0] && line <= lines[1];
    };
    const own = findings.filter(
      (f) => !(f.source.kind === 'doc' && f.source.line !== undefined && inOwnBlock(f.source.path!, f.source.line)),
    );
    const report: CheckReport = {
      base,
      ...selectNew({ findings: own, changed, decisionDocs, existedBefore, base: held, inOwnBlock }),
    };
    // A committed instruction block is checked as it stands: agents read it whatever the change was.
    report.new.push(...staleInstructionFindings(staleInstructions(root, instructions)));
    if (ctx.json) ctx.print(report, () => '');
    else if (format === 'sarif') process.stdout.write(renderSarif(report, LORE_VERSION) + '\n');
    else if (format === 'github') {
      const lines = renderGithub(report);
      process.stdout.write((lines ? `${lines}\n` : '') + renderText(report).split('\n')[0] + '\n');
    } else process.stdout.write(renderText(report) + '\n');
    return report.new.some((f) => f.level === 'error') ? 1 : 0;
  },
};

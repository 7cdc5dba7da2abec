// The body of `lore watch`: the store's owner (as `lore serve`, watching the workspace the way the
// owner always does: ownerWatch.ts), with what it does printed as it happens. There is one reaction
// to a file change, the owner's; this command only shows it.

import type { DriftFinding, IndexStatus, IndexSummary } from '../engine';
import { stderrLogger } from '../host/logger';
import type { OwnerEvent } from '../host/ownerEvents';
import { ownerServer } from '../host/ownerServer';
import type { CommandContext } from './command';
import { stopSignal } from './serveMcp';

export async function runWatch(ctx: CommandContext): Promise<number> {
  const logger = stderrLogger('info');
  const owner = ownerServer({ workspace: ctx.workspace, door: 'lore watch', logger, watchWorkspace: true });
  try {
    const store = owner.access.open();
    await owner.http();
    const unsubscribe = owner.events.subscribe(['indexed', 'drift'], (event) => printEvent(ctx, event));
    // The first run walks the tree, which starts the owner watching it.
    await owner.watcher()!.indexNow();
    // Baselines for the references made since the last scan, so each later change is a finding;
    // symbols located by the parser, as every later check will locate them.
    await store.symbols;
    const scan = await owner.access.use((engine) => engine.driftScan());
    ctx.print(
      { event: 'drift-scan', references: scan.references, by_state: scan.by_state },
      (r) =>
        `drift: ${r.references} references, ${Object.entries(r.by_state)
          .filter(([s]) => s !== 'current')
          .map(([s, n]) => `${n} ${s}`)
          .join(', ')}`,
    );
    const stopped = stopSignal();
    ctx.print(
      { event: 'watching', workspace: store.paths.workspaceRoot },
      (r) => `watching ${r.workspace} (Ctrl-C to stop)`,
    );
    await stopped;
    unsubscribe();
  } finally {
    await owner.close();
  }
  return 0;
}

function printEvent(ctx: CommandContext, event: OwnerEvent): void {
  if (event.event === 'indexed') printIndexed(ctx, event.summary, event.status);
  // Only what needs a look is printed (the event also names the references that still hold).
  else if (event.event === 'drift' && event.findings.length) printDrift(ctx, event.findings);
}

function printIndexed(ctx: CommandContext, summary: IndexSummary, status: IndexStatus): void {
  ctx.print(
    { event: 'indexed', summary, status },
    () =>
      `indexed ${summary.indexed}, renamed ${summary.renamed}, removed ${summary.deleted}; ` +
      `${status.files} files, ${status.chunks} chunks`,
  );
}

function printDrift(ctx: CommandContext, findings: DriftFinding[]): void {
  ctx.print({ event: 'drift', findings }, (r) =>
    r.findings
      .map(
        (f) =>
          `drift: ${f.source.key ?? `${f.source.path}:${f.source.line ?? 0}`} → ` +
          `${f.reference.raw} is ${f.state} (${f.evidence.detail})`,
      )
      .join('\n'),
  );
}

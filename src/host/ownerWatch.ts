// The owner keeping its index and drift current from file events: once a first index has walked
// the workspace (and so started watching it, workspaceWatch.ts), changes are gathered for a moment
// and then indexed, one run at a time; index requests from clients take the same watched listing.
// A changed file the index does not take (code a doc names, a script) gets drift's check, as a save
// in the editor does: an edit from a terminal or a `git pull` reaches the doc's references too.
// What each run did is told to the owner's event listeners (ownerEvents.ts): `lore watch` prints it.

import type { DriftFinding, Logger } from '../engine';
import { lastRequestedDiscovery, runIndex } from './engineApi';
import { driftEvent, type OwnerEvents } from './ownerEvents';
import type { OwnedStoreAccess } from './storeAccess';
import { WorkspaceWatch } from './workspaceWatch';

/** Changes closer together than this are indexed in one run (an editor's save writes several times). */
const SETTLE_MS = 300;
/** Changed files the index leaves out are checked by drift this many at a time (a rename inside one slice pairs up). */
const DRIFT_PATHS_PER_CHECK = 500;

export class OwnerWatch {
  readonly watch: WorkspaceWatch;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private readonly controller = new AbortController();

  constructor(
    private readonly access: OwnedStoreAccess,
    private readonly root: string,
    private readonly logger: Logger,
    private readonly events?: OwnerEvents,
  ) {
    this.watch = new WorkspaceWatch(root, logger, () => this.schedule());
  }

  close(): Promise<void> | undefined {
    clearTimeout(this.timer);
    this.controller.abort();
    this.watch.close();
    return this.running;
  }

  private schedule(): void {
    if (this.controller.signal.aborted) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.running) {
        this.again = true;
        return;
      }
      this.running = this.reindex()
        .catch((error) => this.logger.error(`indexing changed files failed: ${(error as Error).message}`))
        .finally(() => {
          this.running = undefined;
          if (this.again || this.watch.pending) {
            this.again = false;
            this.schedule();
          }
        });
    }, SETTLE_MS);
    this.timer.unref();
  }

  /** The `.lore/kinds` problems last logged (JSON), so a bad line is not repeated on every run. */
  private kindProblems = '[]';

  /** Changed files not yet checked by drift (a run that failed leaves them to the next change). */
  private touched: string[] = [];

  private async reindex(): Promise<void> {
    this.touched = [...new Set([...this.touched, ...this.watch.takeTouched()])];
    if (this.watch.pending) await this.index();
    // The indexed ones were checked as their batches committed; the rest are checked here, and all of
    // them again only when a listener wants the findings (`lore watch` prints them).
    const toCheck = this.events?.wants('drift') ? this.touched : this.touched.filter((p) => !this.watch.lists(p));
    const unindexed = toCheck.length;
    this.touched = toCheck;
    if (!unindexed) return;
    const checked = this.touched;
    const found: DriftFinding[] = [];
    // A branch switch can touch thousands of files: checked a slice at a time, so requests are answered in between.
    while (this.touched.length) {
      const slice = this.touched.slice(0, DRIFT_PATHS_PER_CHECK);
      found.push(...(await this.access.use((engine) => engine.driftCheck(slice))));
      this.touched = this.touched.slice(slice.length);
    }
    this.logger.debug(`drift: checked the references into ${unindexed} changed file(s)`);
    const event = driftEvent(checked, found);
    if (event.findings.length)
      this.logger.info(
        `drift: ${event.findings.length} reference(s) into files changed on disk need a look (lore drift list)`,
      );
    if (this.events?.wants('drift')) this.events.emit(event);
  }

  /**
   * A client's "check these paths now" (the editor after a save): taken as file events are, so the
   * owner's one reaction (index, then drift) runs for them even before its own watcher has seen them.
   */
  hint(paths: readonly string[]): void {
    this.watch.hint(paths);
    this.schedule();
  }

  /** Indexes now (the first run walks the tree and starts watching it); waits for a run already going. */
  async indexNow(): Promise<void> {
    await this.index();
  }

  private async index(): Promise<void> {
    const { summary, status } = await this.access.use((engine) =>
      runIndex(
        engine,
        this.root,
        { signal: this.controller.signal, discovery: lastRequestedDiscovery(engine) },
        undefined,
        (rules) => this.watch.source(rules),
      ),
    );
    const kinds = summary.kind_rules;
    if (kinds?.reclassified) this.logger.info(`.lore/kinds: ${kinds.reclassified} document(s) re-classified`);
    // A bad line is said once (each run reads it again), and again after the file changes.
    const problems = JSON.stringify(kinds?.problems ?? []);
    if (problems !== this.kindProblems) {
      this.kindProblems = problems;
      for (const p of kinds?.problems ?? [])
        this.logger.warn(`.lore/kinds${p.line ? ` line ${p.line}` : ''}: ${p.message} (ignored)`);
    }
    const changed = summary.indexed + summary.renamed + summary.deleted;
    if (changed || summary.embedded) this.events?.emit({ event: 'indexed', summary, status });
    if (changed)
      this.logger.info(
        `indexed changed files: ${summary.indexed} indexed, ${summary.renamed} renamed, ${summary.deleted} removed`,
      );
  }
}

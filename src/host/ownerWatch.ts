// The owner keeping its index and drift current from file events: once a first index has walked
// the workspace (and so started watching it, workspaceWatch.ts), changes are gathered for a moment
// and then indexed, one run at a time; index requests from clients take the same watched listing.
// A changed file the index does not take (code a doc names, a script) gets drift's check, as a save
// in the editor does: an edit from a terminal or a `git pull` reaches the doc's references too.
// What each run did is told to the owner's event listeners (ownerEvents.ts): `lore watch` prints it.

import type { DriftFinding, IndexDriftChecked, Logger } from '../engine';
import { CheckedContent } from './checkedContent';
import { lastRequestedDiscovery, runIndex } from './engineApi';
import { driftEvent, type OwnerEvents } from './ownerEvents';
import type { OwnedStoreAccess } from './storeAccess';
import { WorkspaceWatch } from './workspaceWatch';

/** Changes closer together than this are indexed in one run (an editor's save writes several times). */
const SETTLE_MS = 300;
/**
 * A client's hint names files already written whole (the editor sends it after the save, a Save All's
 * files together): the owner waits only this long for more, so a save is current well within 200 ms.
 */
const HINT_SETTLE_MS = 15;
/**
 * Changed files the index leaves out are checked by drift this many at a time (a rename inside one
 * check pairs up); each check runs in slices of a few ms.
 */
const UNINDEXED_PATHS_PER_CHECK = 500;

export class OwnerWatch {
  readonly watch: WorkspaceWatch;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private readonly controller = new AbortController();
  /** What the last drift checks saw, so a save the hint and the watcher both report is checked once. */
  private readonly checkedContent: CheckedContent;

  constructor(
    private readonly access: OwnedStoreAccess,
    private readonly root: string,
    private readonly logger: Logger,
    private readonly events?: OwnerEvents,
  ) {
    this.watch = new WorkspaceWatch(root, logger, () => this.schedule());
    this.checkedContent = new CheckedContent(root);
  }

  close(): Promise<void> | undefined {
    clearTimeout(this.timer);
    this.controller.abort();
    this.watch.close();
    return this.running;
  }

  /** Whether a client's hint is waiting for the next run (which then starts sooner). */
  private hinted = false;

  private schedule(): void {
    if (this.controller.signal.aborted) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(
      () => {
        this.hinted = false;
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
      },
      this.hinted ? HINT_SETTLE_MS : SETTLE_MS,
    );
    this.timer.unref();
  }

  /** The `.lore/kinds` problems last logged (JSON), so a bad line is not repeated on every run. */
  private kindProblems = '[]';

  /** Changed files not yet checked by drift (a run that failed leaves them to the next change). */
  private touched: string[] = [];

  private async reindex(): Promise<void> {
    this.touched = [...new Set([...this.touched, ...this.watch.takeTouched()])];
    const wantsDrift = this.events?.wants('drift') === true;
    // The index's own drift check of each committed batch (its documents' references, the
    // references into its files) is what a listener hears for those paths: never checked twice.
    const covered = new Set<string>();
    const found = new Map<string, DriftFinding>();
    const told = (paths: string[], findings: DriftFinding[] | undefined) => {
      if (!findings) return; // failed and logged: those paths stay to be checked below
      for (const path of paths) covered.add(path);
      for (const f of findings) found.set(f.id, f);
    };
    if (this.watch.pending) await this.index(told);
    // The rest: changed files the index does not take and, for a listener, listed files whose
    // content the index found unchanged. A path whose content is what the last check saw (the
    // hint's and the watcher's report of one save, in different windows) is not checked again.
    const toCheck = this.touched.filter((p) => !covered.has(p) && (wantsDrift || !this.watch.lists(p)));
    const digests = await this.checkedContent.unchecked(toCheck);
    if (wantsDrift && covered.size) this.checkedContent.checked(await this.checkedContent.unchecked([...covered]));
    this.touched = [...digests.keys()];
    const checked = this.touched;
    // A branch switch can touch thousands of files: each check runs in slices (the owner answers
    // between them), and takes at most UNINDEXED_PATHS_PER_CHECK paths.
    while (this.touched.length) {
      const slice = this.touched.slice(0, UNINDEXED_PATHS_PER_CHECK);
      for (const f of await this.access.use((engine) => engine.driftCheckInSlices(slice))) found.set(f.id, f);
      this.touched = this.touched.slice(slice.length);
    }
    this.checkedContent.checked(digests);
    if (checked.length) this.logger.debug(`drift: checked the references into ${checked.length} changed file(s)`);
    if (!checked.length && !covered.size) return;
    const event = driftEvent([...new Set([...covered, ...checked])], [...found.values()]);
    if (event.findings.length)
      this.logger.info(
        `drift: ${event.findings.length} reference(s) into files changed on disk need a look (lore drift list)`,
      );
    if (wantsDrift) this.events!.emit(event);
  }

  /**
   * A client's "check these paths now" (the editor after a save): taken as file events are, so the
   * owner's one reaction (index, then drift) runs for them even before its own watcher has seen them.
   */
  hint(paths: readonly string[]): void {
    this.watch.hint(paths);
    this.hinted = true;
    this.schedule();
  }

  /** Indexes now (the first run walks the tree and starts watching it); waits for a run already going. */
  async indexNow(): Promise<void> {
    await this.index();
  }

  private async index(driftChecked?: IndexDriftChecked): Promise<void> {
    const { summary, status } = await this.access.use((engine) =>
      runIndex(
        engine,
        this.root,
        { signal: this.controller.signal, discovery: lastRequestedDiscovery(engine), driftChecked },
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

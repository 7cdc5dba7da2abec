// The owner keeping its index current from file events: once a first index has walked the
// workspace (and so started watching it, workspaceWatch.ts), changes are gathered for a moment and
// then indexed, one run at a time; index requests from clients take the same watched listing.

import type { Logger } from '../engine';
import { lastRequestedDiscovery, runIndex } from './engineApi';
import type { OwnedStoreAccess } from './storeAccess';
import { WorkspaceWatch } from './workspaceWatch';

/** Changes closer together than this are indexed in one run (an editor's save writes several times). */
const SETTLE_MS = 300;

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

  private async reindex(): Promise<void> {
    if (!this.watch.pending) return;
    const { summary } = await this.access.use((engine) =>
      runIndex(
        engine,
        this.root,
        { signal: this.controller.signal, discovery: lastRequestedDiscovery(engine) },
        undefined,
        (rules) => this.watch.source(rules),
      ),
    );
    const changed = summary.indexed + summary.renamed + summary.deleted;
    if (changed)
      this.logger.info(
        `indexed changed files: ${summary.indexed} indexed, ${summary.renamed} renamed, ${summary.deleted} removed`,
      );
  }
}

// The owner's side of its drift worker (driftWorker.ts): an index batch's documents are sent there
// to have their new references resolved, and the owner writes what comes back in its own short
// slices (DriftService), so the store keeps one writer. A worker that fails or dies is reported in
// the owner's log and its jobs are done on the owner's thread instead (same results, only slower);
// the next job starts a new worker, and after MAX_FAILURES the owner stops starting them.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { Logger } from '../engine';
import type { DriftPreparer, PreparedDoc } from '../engine/drift/freshRows';
import type { DriftJob, DriftJobReply, DriftWorkerData } from './driftWorker';

/** Workers lost before the owner keeps to its own thread (a tree that kills every worker is not retried forever). */
const MAX_FAILURES = 3;

export type StartDriftWorker = (data: DriftWorkerData, limits?: ResourceLimits) => Worker;

/**
 * The worker's script: dist/driftWorker.js beside the bundle; running from source (tests),
 * driftWorker.ts through tsx's loader, which a worker does not inherit from its parent.
 */
export const startDriftWorker: StartDriftWorker = (data, resourceLimits) => {
  const options = { workerData: data, resourceLimits };
  const bundled = join(__dirname, 'driftWorker.js');
  if (existsSync(bundled)) return new Worker(bundled, options);
  const source = join(__dirname, 'driftWorker.ts');
  // A computed name keeps the bundler from resolving the dev-only loader.
  const loader = ['tsx', 'cjs'].join('/');
  const code = `require(${JSON.stringify(require.resolve(loader))}); require(${JSON.stringify(source)});`;
  return new Worker(code, { ...options, eval: true });
};

type Done = (prepared: Map<string, PreparedDoc> | undefined) => void;

export class DriftWorkerPreparer {
  /** Documents the worker prepared, and workers lost (the owner logs each loss). */
  prepared = 0;
  failures = 0;
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Done>();
  private closed = false;
  /** Whether the current worker has answered yet (its first answer is logged). */
  private answered = false;

  constructor(
    private readonly root: string,
    private readonly logger: Logger,
    private readonly start: StartDriftWorker = startDriftWorker,
  ) {}

  readonly prepare: DriftPreparer = (changed, docs, repositories) => {
    const worker = this.running();
    if (!worker) return Promise.resolve(undefined);
    return new Promise((done: Done) => {
      const id = this.nextId++;
      this.pending.set(id, done);
      worker.ref();
      worker.postMessage({ id, changed, docs, repositories } satisfies DriftJob);
    });
  };

  close(): Promise<void> {
    this.closed = true;
    this.settleAll();
    const worker = this.worker;
    this.worker = undefined;
    return worker ? worker.terminate().then(() => undefined) : Promise.resolve();
  }

  private running(): Worker | undefined {
    if (this.closed || this.failures >= MAX_FAILURES) return undefined;
    if (this.worker) return this.worker;
    let worker: Worker;
    try {
      worker = this.start({ root: this.root });
    } catch (error) {
      this.lost(undefined, (error as Error).message);
      return undefined;
    }
    worker.unref();
    worker.on('message', (reply: DriftJobReply) => this.answer(worker, reply));
    worker.on('error', (error) => this.lost(worker, error.message));
    worker.on('exit', (code) => this.lost(worker, `it exited with code ${code}`));
    this.worker = worker;
    this.answered = false;
    return worker;
  }

  private answer(worker: Worker, reply: DriftJobReply): void {
    const done = this.pending.get(reply.id);
    this.pending.delete(reply.id);
    if (!this.pending.size) worker.unref();
    if (!done) return;
    if ('error' in reply) {
      this.logger.warn(`drift worker: a batch failed (${reply.error}); checked on the owner's thread instead`);
      return done(undefined);
    }
    if (!this.answered) {
      const first = `${reply.prepared.length} document(s) first`;
      this.logger.info(`drift worker: resolving references off the owner's thread (${first})`);
    }
    this.answered = true;
    this.prepared += reply.prepared.length;
    done(new Map(reply.prepared));
  }

  /** A worker that died: its jobs are done on the owner's thread, and the next job starts another. */
  private lost(worker: Worker | undefined, why: string): void {
    if (worker !== this.worker || this.closed) return;
    this.worker = undefined;
    this.failures++;
    const next =
      this.failures >= MAX_FAILURES
        ? `after ${this.failures} losses drift is checked on the owner's thread from now on`
        : 'a new worker starts with the next batch';
    this.logger.warn(`drift worker stopped (${why}): its batch is checked on the owner's thread; ${next}`);
    this.settleAll();
  }

  private settleAll(): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const done of waiting) done(undefined);
  }
}

// What the owner tells its clients happened, as it happens: the store's data changed, an index run
// from file events finished, drift found references into changed files. The owner is the only
// process that reacts to file changes; `lore watch` prints these events and the HTTP server streams
// them to authenticated clients (GET /events), so no client has to watch SQLite's files.

import type { DriftFinding, IndexStatus, IndexSummary } from '../engine';

export type OwnerEvent =
  /** Something in the store changed (a save, a status change, an index run, a drift check). */
  | { event: 'data' }
  /** The owner indexed files that changed on disk. */
  | { event: 'indexed'; summary: IndexSummary; status: IndexStatus }
  /**
   * Drift checked the references into `paths` (files changed on disk, or named by a client's hint):
   * `findings` are those that need a look, `current` the ones that still hold (a client showing who
   * refers to a file counts both, and drops what it knew about these paths before).
   */
  | { event: 'drift'; paths: string[]; findings: DriftFinding[]; current: DriftFinding[] };

export type OwnerEventName = OwnerEvent['event'];
export type DriftEvent = Extract<OwnerEvent, { event: 'drift' }>;

/** The drift event for a check of `paths`, its findings split into those that need a look and the rest. */
export function driftEvent(paths: string[], findings: DriftFinding[]): DriftEvent {
  return {
    event: 'drift',
    paths,
    findings: findings.filter((f) => f.state !== 'current'),
    current: findings.filter((f) => f.state === 'current'),
  };
}
type Listener = (event: OwnerEvent) => void;

export class OwnerEvents {
  private readonly listeners = new Set<{ names: ReadonlySet<OwnerEventName>; listener: Listener }>();
  private dataQueued = false;

  /** Calls `listener` with every event of `names` from now on; returns the unsubscribe. */
  subscribe(names: readonly OwnerEventName[], listener: Listener): () => void {
    const entry = { names: new Set(names), listener };
    this.listeners.add(entry);
    return () => void this.listeners.delete(entry);
  }

  /** Whether anyone listens for `name` (drift findings are gathered only when someone does). */
  wants(name: OwnerEventName): boolean {
    for (const { names } of this.listeners) if (names.has(name)) return true;
    return false;
  }

  emit(event: OwnerEvent): void {
    for (const { names, listener } of [...this.listeners]) if (names.has(event.event)) listener(event);
  }

  /** Says the data changed, once for every burst of writes in one turn of the event loop. */
  dataChanged(): void {
    if (this.dataQueued) return;
    this.dataQueued = true;
    setImmediate(() => {
      this.dataQueued = false;
      this.emit({ event: 'data' });
    });
  }
}

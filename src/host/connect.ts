// Reaching a workspace's store from any Lore process (the CLI, lore mcp, the editor): be a
// client of its live owner, or become the owner (the editor becomes it by starting `lore serve`). While another process
// holds the lock but does
// not serve yet (it is starting, or several are electing a new owner after one stopped), wait and
// look again, so a caller sees STORE_BUSY only when no owner could be reached for `waitMs`.
// A one-shot command that holds the store (a CLI write with no owner running) finishes and lets it
// go: callers started together take turns, each waiting up to `CLI_TURN_MS` for the holder of the
// moment, so 32 writes started at once all succeed instead of most failing with STORE_BUSY. The
// wait restarts whenever the lock passes to another process; a holder that keeps it longer than
// that (a long `lore index`) is still reported as busy.

import { setTimeout as delay } from 'node:timers/promises';
import { LoreError, isLoreError } from '../engine';
import { storePaths } from './dataDir';
import { findLiveOwner, type LiveOwner } from './owner';
import { isLive, readOwner } from './ownerLock';

/** How long a caller waits for the store to be served before STORE_BUSY. */
export const CONNECT_WAIT_MS = 5000;
/** How long a caller waits for one one-shot CLI command that holds the store to finish with it. */
export const CLI_TURN_MS = 60_000;

export type Connection<T> = { kind: 'client'; owner: LiveOwner } | { kind: 'owner'; store: T };

export interface ConnectOptions<T> {
  home?: string;
  /** Opens the store as its owner (taking the lock); throws STORE_BUSY while another process holds it. */
  become(): T | Promise<T>;
  waitMs?: number;
}

export async function connect<T>(workspace: string, options: ConnectOptions<T>): Promise<Connection<T>> {
  const ownerFile = storePaths(workspace, options.home).owner;
  const waitMs = options.waitMs ?? CONNECT_WAIT_MS;
  let deadline = Date.now() + waitMs;
  let holder: string | undefined;
  for (let pause = 20; ; pause = Math.min(pause * 2, 250)) {
    const owner = await findLiveOwner(ownerFile);
    if (owner) return { kind: 'client', owner };
    try {
      return { kind: 'owner', store: await options.become() };
    } catch (error) {
      if (!isLoreError(error) || error.code !== 'STORE_BUSY') throw error;
      const held = error.details?.owner as { pid: number; door: string; started_at: string } | undefined;
      const turn = held && `${held.pid}@${held.started_at}`;
      if (turn && turn !== holder) {
        // The store passed to another process: wait for its turn to end, as long as its kind of turn lasts.
        holder = turn;
        deadline = Math.max(deadline, Date.now() + (held.door === 'cli' ? Math.max(waitMs, CLI_TURN_MS) : waitMs));
      }
      if (Date.now() >= deadline) throw silentOwner(ownerFile) ?? error;
    }
    await delay(pause);
  }
}

/** An owner that is alive and published a port, yet did not answer: said as such, not as "busy". */
function silentOwner(ownerFile: string): LoreError | undefined {
  const info = readOwner(ownerFile);
  if (!info?.port || !isLive(info, ownerFile)) return undefined;
  return new LoreError(
    'STORE_UNAVAILABLE',
    `the Lore process that owns this store (pid ${info.pid}, ${info.door}) did not answer on port ${info.port}`,
    'it may be stopped, stuck or out of file descriptors: end it (its lock is then taken over) and try again',
  );
}

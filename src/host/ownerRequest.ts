// Every request one Lore process makes to another (the owner's /health, /rpc and /mcp) goes through
// here, with a deadline held by a timer that keeps the process alive until the request settles.
// Why: a timer from AbortSignal.timeout is unref'd, so against a peer that accepts a connection
// and then drops it or never answers (an owner out of file descriptors, or stopped), Node found
// nothing left to run and exited 0 with the command's work undone. Here the timer is ref'd, and a
// request that misses its deadline fails with a clear STORE_UNAVAILABLE.

import { LoreError } from '../engine';

/** How long a health check may take: an owner that answers at all answers it at once. */
export const HEALTH_DEADLINE_MS = 1500;
/**
 * How long one ordinary /rpc or relayed /mcp request may take (a remember embeds; a big import
 * writes). LORE_REQUEST_DEADLINE_MS changes it (a very slow machine; tests of a stopped owner).
 */
export const REQUEST_DEADLINE_MS = Number(process.env.LORE_REQUEST_DEADLINE_MS) || 120_000;

export class OwnerTimeout extends LoreError {
  constructor(what: string, ms: number) {
    super(
      'STORE_UNAVAILABLE',
      `the Lore process that owns this store did not answer ${what} within ${Math.round(ms / 1000)} s`,
      'if it is stopped or stuck, end it (its lock is then taken over) and run the command again',
    );
  }
}

/**
 * A deadline for one request: its signal aborts the request when the time is up (or when `outer`,
 * a caller hanging up, aborts), and its timer is ref'd. `restart()` gives a streamed answer a new
 * span after each piece (an index run's progress lines), so only silence times out.
 */
export class Deadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private expired = false;

  constructor(
    private readonly ms: number,
    private readonly what: string,
    private readonly outer?: AbortSignal | null,
  ) {
    if (outer?.aborted) this.controller.abort(outer.reason);
    else outer?.addEventListener('abort', this.onOuterAbort, { once: true });
    this.restart();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  restart(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.expired = true;
      this.controller.abort(this.error());
    }, this.ms);
  }

  /** The error to throw for a failure: the timeout when the deadline caused it, else `error` itself. */
  explain(error: unknown): unknown {
    return this.expired ? this.error() : error;
  }

  clear(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.onOuterAbort);
  }

  private readonly onOuterAbort = () => this.controller.abort(this.outer?.reason);

  private error(): OwnerTimeout {
    return new OwnerTimeout(this.what, this.ms);
  }
}

/** fetch() with a Deadline, the whole body read too (`read`), so a half-sent answer cannot hang. */
export async function fetchWithDeadline<T>(
  url: string | URL,
  init: RequestInit,
  ms: number,
  what: string,
  read: (response: Response, deadline: Deadline) => Promise<T>,
): Promise<T> {
  const deadline = new Deadline(ms, what, init.signal);
  try {
    const response = await fetch(url, { ...init, signal: deadline.signal });
    return await read(response, deadline);
  } catch (error) {
    throw deadline.explain(error);
  } finally {
    deadline.clear();
  }
}

// A client's side of the owner's event stream (GET /events, ownerEvents.ts): one long request whose
// answer is Server-Sent Events, read into OwnerEvents. When the stream drops (the owner restarted,
// stopped, or the connection broke) it is opened again after a pause that doubles with each failure
// in a row (RETRY_FIRST_MS up to RETRY_MAX_MS), unless the caller says the owner is gone for good.
// The editor learns from it that data changed and what drift found, instead of watching SQLite's files.

import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import type { OwnerEvent, OwnerEventName } from './ownerEvents';

export const RETRY_FIRST_MS = 250;
export const RETRY_MAX_MS = 8000;

export interface OwnerEventStreamOptions {
  /** The owner's base URL (http://127.0.0.1:PORT). */
  url: string;
  /** The owner's own token (the MCP token does not open /events). */
  token: string;
  events: readonly OwnerEventName[];
  onEvent(event: OwnerEvent): void;
  /** Subscribed: the first time, and `again` after each reconnect (events in between were missed). */
  onSubscribed?(again: boolean): void;
  /**
   * The stream dropped or could not be opened, `failures` times in a row; returning false stops
   * retrying (the caller found the owner gone and connects anew).
   */
  onDown?(why: string, failures: number): boolean;
  retryFirstMs?: number;
  retryMaxMs?: number;
}

export class OwnerEventStream {
  private req: ClientRequest | undefined;
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  private subscribedOnce = false;
  private closed = false;
  private settleReady!: () => void;
  /** Settles at the first subscription or the first failure: a hint sent after it is not missed by this stream. */
  readonly ready = new Promise<void>((resolve) => (this.settleReady = resolve));

  constructor(private readonly options: OwnerEventStreamOptions) {
    this.open();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.req?.destroy();
    this.req = undefined;
    this.settleReady();
  }

  private open(): void {
    if (this.closed) return;
    const names = this.options.events.join(',');
    const req = request(`${this.options.url}/events?events=${names}`, {
      headers: { authorization: `Bearer ${this.options.token}`, accept: 'text/event-stream' },
    });
    this.req = req;
    let down = false;
    const fail = (why: string) => {
      if (down || this.req !== req) return;
      down = true;
      req.destroy();
      this.down(why);
    };
    req.once('error', (error) => fail(error.message));
    req.once('response', (res: IncomingMessage) => {
      if (res.statusCode !== 200) {
        res.resume();
        return fail(`the owner answered ${res.statusCode} to GET /events`);
      }
      res.setEncoding('utf8');
      let pending = '';
      let subscribed = false;
      res.on('data', (chunk: string) => {
        pending += chunk;
        const frames = pending.split('\n\n');
        pending = frames.pop() ?? '';
        for (const frame of frames) {
          if (!subscribed) {
            // The owner's first frame is a comment: from here on nothing is missed.
            subscribed = true;
            this.subscribed();
          }
          for (const line of frame.split('\n')) if (line.startsWith('data: ')) this.deliver(line.slice(6));
        }
      });
      res.once('end', () => fail('the owner ended the event stream'));
      res.once('error', (error) => fail(error.message));
    });
    req.end();
  }

  private subscribed(): void {
    this.failures = 0;
    const again = this.subscribedOnce;
    this.subscribedOnce = true;
    this.settleReady();
    this.options.onSubscribed?.(again);
  }

  private deliver(json: string): void {
    let event: OwnerEvent;
    try {
      event = JSON.parse(json) as OwnerEvent;
    } catch {
      return; // a line this client cannot read is skipped; the next one may be fine
    }
    this.options.onEvent(event);
  }

  private down(why: string): void {
    if (this.closed) return;
    this.req = undefined;
    this.failures++;
    this.settleReady();
    if (this.options.onDown && !this.options.onDown(why, this.failures)) return this.close();
    const first = this.options.retryFirstMs ?? RETRY_FIRST_MS;
    const wait = Math.min(first * 2 ** (this.failures - 1), this.options.retryMaxMs ?? RETRY_MAX_MS);
    this.timer = setTimeout(() => this.open(), wait);
    this.timer.unref?.();
  }
}

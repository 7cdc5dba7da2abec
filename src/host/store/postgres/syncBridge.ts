// A synchronous call into an asynchronous worker (the synckit pattern): the caller posts a request
// on a MessageChannel, blocks on Atomics.wait over a SharedArrayBuffer until the worker counts a reply
// and notifies, then takes the answer with receiveMessageOnPort. The engine is synchronous (its
// SQLite store is), so this is how it reaches `pg`: only the caller's thread waits, and only for
// its own call's answer (each call is numbered; a late answer to one that timed out is dropped).
// docs/postgres.md says why this and not an async engine.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';
import { LoreError, type ErrorCode } from '../../../engine';
import type { BridgeReply, BridgeRequest, MemoryWorkerData } from './memoryWorker';

/** How long one call may wait for its answer: lock waits and a lost connection's retries fit well within it. */
const ANSWER_WITHIN_MS = 60_000;

/**
 * The worker's script: dist/pgMemoryWorker.js beside the bundle; running from source (tests),
 * memoryWorker.ts through tsx's loader, which a worker does not inherit from its parent.
 */
function startWorker(
  data: Omit<MemoryWorkerData, 'port' | 'signal'>,
  port: MemoryWorkerData['port'],
  signal: Int32Array,
) {
  const options = { workerData: { ...data, port, signal }, transferList: [port] };
  const bundled = join(__dirname, 'pgMemoryWorker.js');
  if (existsSync(bundled)) return new Worker(bundled, options);
  const source = join(__dirname, 'memoryWorker.ts');
  // A computed name keeps the bundler from resolving the dev-only loader.
  const loader = ['tsx', 'cjs'].join('/');
  const code = `require(${JSON.stringify(require.resolve(loader))}); require(${JSON.stringify(source)});`;
  return new Worker(code, { ...options, eval: true });
}

export class SyncBridge {
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private readonly channel = new MessageChannel();
  private readonly worker: Worker;
  private closed = false;
  private lastSeq = 0;

  constructor(data: Omit<MemoryWorkerData, 'port' | 'signal'>) {
    this.worker = startWorker(data, this.channel.port2, this.signal);
    // Neither keeps the process alive: a CLI command ends when its work does.
    this.worker.unref();
    this.channel.port1.unref();
  }

  /** Runs `op` in the worker and returns its answer; its failure is thrown here as a LoreError. */
  call<T>(op: string, ...args: unknown[]): T {
    return this.send<T>({ op, args });
  }

  /** Runs a store operation on one repository's rows (each scope names its own: engines share a worker). */
  callIn<T>(repoId: number, op: string, args: unknown[]): T {
    return this.send<T>({ op, args, repoId });
  }

  private send<T>(request: Omit<BridgeRequest, 'seq'>): T {
    if (this.closed) throw new LoreError('STORE_UNAVAILABLE', 'the PostgreSQL store is closed');
    const seq = ++this.lastSeq;
    const deadline = Date.now() + ANSWER_WITHIN_MS;
    this.channel.port1.postMessage({ ...request, seq });
    for (;;) {
      // Read the count before draining: a reply posted after the drain moves it, so the wait returns.
      const seen = Atomics.load(this.signal, 0);
      const reply = this.takeReply(seq);
      if (reply) {
        if (reply.error) throw new LoreError(reply.error.code as ErrorCode, reply.error.message, reply.error.hint);
        return reply.value as T;
      }
      const left = deadline - Date.now();
      if (left <= 0 || Atomics.wait(this.signal, 0, seen, left) === 'timed-out') {
        throw new LoreError(
          'STORE_UNAVAILABLE',
          `the PostgreSQL store did not answer within ${ANSWER_WITHIN_MS / 1000} s`,
          'check the server (`lore doctor`) and try again',
        );
      }
    }
  }

  /** This call's reply if it has arrived; replies to earlier calls that timed out are dropped. */
  private takeReply(seq: number): BridgeReply | undefined {
    for (;;) {
      const received = receiveMessageOnPort(this.channel.port1);
      if (!received) return undefined;
      const reply = received.message as BridgeReply;
      if (reply.seq === seq) return reply;
    }
  }

  close(): void {
    if (this.closed) return;
    try {
      this.call('close');
    } finally {
      this.closed = true;
      void this.worker.terminate();
      this.channel.port1.close();
    }
  }
}

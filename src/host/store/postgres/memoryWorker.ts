// The worker side of the synchronous bridge (syncBridge.ts): it holds the PostgreSQL pool, runs
// each operation the engine's thread asks for (memoryQueries.ts) and wakes that thread with the
// answer. A transaction the engine opens holds one connection here until it commits or rolls
// back; nested ones are savepoints. Operations outside a transaction use a pooled connection, and
// an audit append outside one gets a transaction of its own (the chain's lock needs one).

import { workerData, type MessagePort } from 'node:worker_threads';
import { LoreError } from '../../../engine';
import type { PostgresSettings } from './connectionSettings';
import { memoryQueries, type QueryScope } from './memoryQueries';
import { searchQueries } from './searchQueries';
import { vectorQueries } from './vectorQueries';
import { PostgresStore } from './postgresStore';
import { inTransaction } from './records';
import { isConnectionLoss } from './connect';

export interface MemoryWorkerData {
  port: MessagePort;
  signal: Int32Array;
  settings: PostgresSettings;
  remote: string;
  loreVersion: string;
}

/** An operation by name; a store operation names the repository whose rows it reads or writes. */
export interface BridgeRequest {
  /** The call's number, echoed in its reply: a reply to a call that already timed out is dropped. */
  seq: number;
  op: string;
  args: unknown[];
  repoId?: number;
}

export interface BridgeReply {
  seq: number;
  value?: unknown;
  error?: { code: string; message: string; hint?: string };
}

export interface OpenedStore {
  storeId: string;
  repoId: number;
  remote: string;
  label: string;
}

const { port, signal, settings, remote, loreVersion } = workerData as MemoryWorkerData;

let store: PostgresStore | undefined;
let transaction:
  | {
      client: QueryScope['client'];
      release(error?: unknown): void;
      depth: number;
      /** The engine's write id and repository: a receipt is written with the commit (write_receipts). */
      receipt?: { writeId: string; repoId: number };
    }
  | undefined;

/**
 * A transaction whose connection is lost is over, whatever its savepoint depth: PostgreSQL rolled
 * it back. It is dropped here, so the engine's retry begins a fresh one; kept, every later
 * operation went to the dead connection and failed, and the engine could never write again.
 */
function dropIfLost(error: unknown): void {
  if (!transaction || !isConnectionLoss(error)) return;
  const t = transaction;
  transaction = undefined;
  t.release(error);
}

function opened(): PostgresStore {
  if (!store) throw new LoreError('STORE_UNAVAILABLE', 'the PostgreSQL store is not open');
  return store;
}

/** Every operation the engine's thread may ask for, by name. */
const operations = { ...memoryQueries, ...searchQueries, ...vectorQueries };
export type WorkerOp = keyof typeof operations;

/**
 * One operation on one connection: the open transaction's, or a pooled one (with a transaction of
 * its own for a chain append, whose lock needs one).
 */
async function runOp(op: WorkerOp, args: unknown[], repoId: number | undefined): Promise<unknown> {
  // Never a default: engines of several repositories share this worker (a scope each).
  if (!repoId) throw new LoreError('STORE_UNAVAILABLE', `the shared store's ${op} was asked for no repository`);
  const fn = operations[op] as (scope: QueryScope, ...rest: unknown[]) => Promise<unknown>;
  const run = (client: QueryScope['client'], inTx: boolean) => fn({ client, repoId, inTransaction: inTx }, ...args);
  if (transaction) return await run(transaction.client, true);
  if (op !== 'appendAudit') return await opened().withClient((client) => run(client, false));
  return await opened().withClient((client) => inTransaction(client, () => run(client, true)));
}

const control: Record<string, (...args: unknown[]) => Promise<unknown>> = {
  async open(): Promise<OpenedStore> {
    store = await PostgresStore.open(settings, { loreVersion });
    // Receipts only answer a retry's question, asked within seconds of its commit.
    await store.withClient((client) => client.query("DELETE FROM write_receipts WHERE at < now() - interval '1 day'"));
    const repository = await store.repository(remote);
    return { storeId: repository.store_id, repoId: repository.id, remote: repository.remote, label: store.info.label };
  },
  /** Another repository on the same connection: its scope names its id on every operation. */
  async repository(other: unknown): Promise<OpenedStore> {
    const repository = await opened().repository(String(other));
    return {
      storeId: repository.store_id,
      repoId: repository.id,
      remote: repository.remote,
      label: opened().info.label,
    };
  },
  async begin(writeId?: unknown, repoId?: unknown) {
    // An outermost begin (it carries a write id) while one is open: that one was abandoned (its
    // connection failed between calls); it is rolled back and dropped, never nested into.
    if (transaction && typeof writeId === 'string') {
      const stale = transaction;
      transaction = undefined;
      await stale.client.query('ROLLBACK').then(
        () => stale.release(),
        (error: unknown) => stale.release(error),
      );
    }
    if (transaction) {
      transaction.depth++;
      await transaction.client.query(`SAVEPOINT lore_${transaction.depth}`);
      return;
    }
    const held = await opened().checkout();
    try {
      await held.client.query('BEGIN');
    } catch (error) {
      held.release(error);
      throw error;
    }
    const receipt = typeof writeId === 'string' ? { writeId, repoId: Number(repoId) } : undefined;
    transaction = { ...held, depth: 0, receipt };
  },
  /** Whether a transaction with this write id committed (its receipt is there). */
  async committed(writeId: unknown) {
    return await opened().withClient(async (client) => {
      const found = await client.query('SELECT 1 FROM write_receipts WHERE write_id = $1', [String(writeId)]);
      return found.rows.length > 0;
    });
  },
  async commit() {
    const t = transaction!;
    if (t.depth > 0) {
      await t.client.query(`RELEASE SAVEPOINT lore_${t.depth--}`);
      return;
    }
    transaction = undefined;
    try {
      if (t.receipt)
        await t.client.query('INSERT INTO write_receipts (write_id, repo_id) VALUES ($1, $2)', [
          t.receipt.writeId,
          t.receipt.repoId,
        ]);
      await t.client.query('COMMIT');
      t.release();
    } catch (error) {
      t.release(error);
      throw error;
    }
  },
  async rollback() {
    const t = transaction;
    if (!t) return;
    if (t.depth > 0) {
      await t.client.query(`ROLLBACK TO SAVEPOINT lore_${t.depth}`);
      await t.client.query(`RELEASE SAVEPOINT lore_${t.depth--}`);
      return;
    }
    transaction = undefined;
    try {
      await t.client.query('ROLLBACK');
      t.release();
    } catch (error) {
      t.release(error);
    }
  },
  async close() {
    await store?.close();
    store = undefined;
  },
};

function replyWith(reply: BridgeReply): void {
  port.postMessage(reply);
  // A count, not a flag: the caller waits for it to move past the value it saw before draining.
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
}

function asReply(error: unknown): Omit<BridgeReply, 'seq'> {
  const failure = error instanceof LoreError ? error : store ? store.error(error) : (error as Error);
  const code = failure instanceof LoreError ? failure.code : 'STORE_UNAVAILABLE';
  const hint = failure instanceof LoreError ? failure.hint : undefined;
  return { error: { code, message: failure.message ?? String(failure), ...(hint ? { hint } : {}) } };
}

// One request at a time: the engine's thread waits for each answer before it asks again.
port.on('message', (message: BridgeRequest) => {
  const work =
    message.op in control
      ? control[message.op](...message.args)
      : runOp(message.op as WorkerOp, message.args, message.repoId);
  work.then(
    (value) => replyWith({ seq: message.seq, value }),
    (error: unknown) => {
      dropIfLost(error);
      replyWith({ seq: message.seq, ...asReply(error) });
    },
  );
});

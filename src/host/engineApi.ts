// The engine as an asynchronous API, so a door works the same whether it owns the store (local
// calls) or reaches the owner over loopback HTTP (`/rpc`). One table of operations serves both.

import { LoreError, Engine, type Actor, type CanonicalizeOptions, type CanonicalizeResult, type ErrorCode, type IndexOptions, type IndexProgress, type IndexStatus, type IndexSummary } from '../engine';
import type { DiscoveryConfig } from '../engine/indexing/discovery';
import { WorkspaceFileSource } from './fileSource';
import { WorkspaceRepoFiles } from './repoFiles';
import { workspaceDiscoveryRules } from './workspaceConfig';

export const RPC_OPS = ['remember', 'recall', 'get', 'list', 'history', 'setStatus', 'supersede', 'promote', 'forget', 'verifyAudit', 'auditCheckpoint', 'stats', 'indexStatus', 'indexWorkspace', 'listDocs', 'stewardRun', 'inbox', 'resolveInbox', 'sessionClose', 'driftScan', 'driftCheck', 'driftFindings', 'reverify', 'reverifyReference', 'exportBundle', 'importBundle', 'trustedKeys', 'trustAuthor', 'distrustAuthor', 'canonicalize', 'verifyRecords'] as const;
export type RpcOp = (typeof RPC_OPS)[number];
type EngineOp = Exclude<RpcOp, 'indexWorkspace' | 'canonicalize'>;

type Method<K extends EngineOp> = Engine[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
export type EngineApi = { [K in EngineOp]: Method<K> } & {
  /** Indexes the workspace at `root`; progress reaches `onProgress` only when the store is local. */
  indexWorkspace(root: string, options: Pick<IndexOptions, 'full' | 'signal'>, onProgress?: (p: IndexProgress) => void): Promise<{ summary: IndexSummary; status: IndexStatus }>;
  /** Writes a record into the workspace the store belongs to (an ADR, or a signed `.lore/` record). */
  canonicalize(actor: Actor, key: string, options?: CanonicalizeOptions): Promise<CanonicalizeResult>;
};

/** Canonicalize against the workspace's files: the engine renders, this host writes. */
export function runCanonicalize(engine: Engine, root: string | undefined, actor: Actor, key: string, options: CanonicalizeOptions = {}): CanonicalizeResult {
  if (!root) throw new LoreError('STORE_UNAVAILABLE', 'this connection to the store has no workspace folder to write into', 'run it from the workspace (lore canonicalize) or the editor');
  return engine.canonicalize(actor, key, options, new WorkspaceRepoFiles(root));
}

/** Drains the indexer over the workspace's files, reporting progress. */
/** `discovery`: globs from the editor's settings, on top of the workspace's .lore/config.json. */
export async function runIndex(engine: Engine, root: string, options: Pick<IndexOptions, 'full' | 'signal'> & { discovery?: DiscoveryConfig }, onProgress?: (p: IndexProgress) => void): Promise<{ summary: IndexSummary; status: IndexStatus }> {
  const run = engine.index(new WorkspaceFileSource(root, workspaceDiscoveryRules(root, options.discovery)), { full: options.full, signal: options.signal });
  for (;;) {
    const step = await run.next();
    if (step.done) return { summary: step.value, status: engine.indexStatus() };
    onProgress?.(step.value);
    // Between batches the owner's other requests (agents, the CLI, the editor) get their turn.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** `workspaceRoot`: the folder canonicalize writes into (the store's workspace). */
export function localApi(engine: Engine, workspaceRoot?: string): EngineApi {
  const api = {} as Record<RpcOp, (...args: unknown[]) => Promise<unknown>>;
  for (const op of RPC_OPS) {
    api[op] =
      op === 'indexWorkspace'
        ? async (...args: unknown[]) => runIndex(engine, ...(args as [string, IndexOptions, ((p: IndexProgress) => void)?]))
        : op === 'canonicalize'
          ? async (...args: unknown[]) => runCanonicalize(engine, workspaceRoot, ...(args as [Actor, string, CanonicalizeOptions?]))
          : async (...args: unknown[]) => (engine[op] as (...a: unknown[]) => unknown).apply(engine, args);
  }
  return api as unknown as EngineApi;
}

/** Runs one RPC request against the engine; throws LoreError for bad requests. */
export async function dispatchRpc(engine: Engine, workspaceRoot: string, body: unknown): Promise<unknown> {
  const { op, args } = (body ?? {}) as { op?: unknown; args?: unknown };
  if (typeof op !== 'string' || !(RPC_OPS as readonly string[]).includes(op)) throw new LoreError('INVALID_INPUT', `unknown operation ${JSON.stringify(op)}`);
  if (!Array.isArray(args)) throw new LoreError('INVALID_INPUT', 'args must be a list');
  // The owner indexes its own workspace: a client names no folder to read.
  if (op === 'indexWorkspace') return runIndex(engine, workspaceRoot, { full: (args[1] as IndexOptions | undefined)?.full === true });
  if (op === 'canonicalize') return runCanonicalize(engine, workspaceRoot, ...(args as [Actor, string, CanonicalizeOptions?]));
  return (engine[op as EngineOp] as (...a: unknown[]) => unknown).apply(engine, args);
}

export function remoteApi(url: string, token: string): EngineApi {
  const api = {} as Record<RpcOp, (...args: unknown[]) => Promise<unknown>>;
  for (const op of RPC_OPS) {
    api[op] = async (...args: unknown[]) => {
      // Functions and signals do not travel; the owner reports no progress over RPC.
      if (op === 'indexWorkspace') args = [args[0], { full: (args[1] as IndexOptions | undefined)?.full === true }];
      let response: Response;
      try {
        response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ op, args }) });
      } catch (error) {
        throw new LoreError('STORE_UNAVAILABLE', `cannot reach the Lore process that owns this store (${(error as Error).message})`, 'if it crashed, run the command again: its lock is taken over');
      }
      const payload = (await response.json().catch(() => ({}))) as { result?: unknown; error?: { code: ErrorCode; message: string; hint?: string; details?: Record<string, unknown> } };
      if (payload.error) throw new LoreError(payload.error.code, payload.error.message, payload.error.hint, payload.error.details);
      if (!response.ok) throw new LoreError('STORE_UNAVAILABLE', `the store owner answered HTTP ${response.status}`);
      return payload.result;
    };
  }
  return api as unknown as EngineApi;
}

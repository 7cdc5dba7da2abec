// The engine as an asynchronous API, so a door works the same whether it owns the store (local
// calls) or reaches the owner over loopback HTTP (`/rpc`). One table of operations serves both.

import { LoreError, Engine, type ErrorCode, type IndexOptions, type IndexProgress, type IndexStatus, type IndexSummary } from '../engine';
import type { DiscoveryConfig } from '../engine/index/discovery';
import { WorkspaceFileSource } from './fileSource';
import { workspaceDiscoveryRules } from './workspaceConfig';

export const RPC_OPS = ['remember', 'recall', 'get', 'list', 'history', 'setStatus', 'supersede', 'promote', 'forget', 'verifyAudit', 'auditCheckpoint', 'stats', 'indexStatus', 'indexWorkspace'] as const;
export type RpcOp = (typeof RPC_OPS)[number];
type EngineOp = Exclude<RpcOp, 'indexWorkspace'>;

type Method<K extends EngineOp> = Engine[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
export type EngineApi = { [K in EngineOp]: Method<K> } & {
  /** Indexes the workspace at `root`; progress reaches `onProgress` only when the store is local. */
  indexWorkspace(root: string, options: Pick<IndexOptions, 'full' | 'signal'>, onProgress?: (p: IndexProgress) => void): Promise<{ summary: IndexSummary; status: IndexStatus }>;
};

/** Drains the indexer over the workspace's files, reporting progress. */
/** `discovery`: globs from the editor's settings, on top of the workspace's .lore/config.json. */
export async function runIndex(engine: Engine, root: string, options: Pick<IndexOptions, 'full' | 'signal'> & { discovery?: DiscoveryConfig }, onProgress?: (p: IndexProgress) => void): Promise<{ summary: IndexSummary; status: IndexStatus }> {
  const run = engine.index(new WorkspaceFileSource(root, workspaceDiscoveryRules(root, options.discovery)), { full: options.full, signal: options.signal });
  for (;;) {
    const step = await run.next();
    if (step.done) return { summary: step.value, status: engine.indexStatus() };
    onProgress?.(step.value);
  }
}

export function localApi(engine: Engine): EngineApi {
  const api = {} as Record<RpcOp, (...args: unknown[]) => Promise<unknown>>;
  for (const op of RPC_OPS) {
    api[op] =
      op === 'indexWorkspace'
        ? async (...args: unknown[]) => runIndex(engine, ...(args as [string, IndexOptions, ((p: IndexProgress) => void)?]))
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

// The engine as an asynchronous API, so a door works the same whether it owns the store (local
// calls) or reaches the owner over loopback HTTP (`/rpc`). One table of operations serves both.

import { LoreError, type Engine, type ErrorCode } from '../engine';

export const RPC_OPS = ['remember', 'recall', 'get', 'list', 'history', 'setStatus', 'supersede', 'promote', 'forget', 'verifyAudit', 'stats'] as const;
export type RpcOp = (typeof RPC_OPS)[number];

type Method<K extends RpcOp> = Engine[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never;
export type EngineApi = { [K in RpcOp]: Method<K> };

export function localApi(engine: Engine): EngineApi {
  const api = {} as Record<RpcOp, (...args: unknown[]) => Promise<unknown>>;
  for (const op of RPC_OPS) {
    api[op] = async (...args: unknown[]) => (engine[op] as (...a: unknown[]) => unknown).apply(engine, args);
  }
  return api as unknown as EngineApi;
}

/** Runs one RPC request against the engine; throws LoreError for bad requests. */
export function dispatchRpc(engine: Engine, body: unknown): unknown {
  const { op, args } = (body ?? {}) as { op?: unknown; args?: unknown };
  if (typeof op !== 'string' || !(RPC_OPS as readonly string[]).includes(op)) throw new LoreError('INVALID_INPUT', `unknown operation ${JSON.stringify(op)}`);
  if (!Array.isArray(args)) throw new LoreError('INVALID_INPUT', 'args must be a list');
  return (engine[op as RpcOp] as (...a: unknown[]) => unknown).apply(engine, args);
}

export function remoteApi(url: string, token: string): EngineApi {
  const api = {} as Record<RpcOp, (...args: unknown[]) => Promise<unknown>>;
  for (const op of RPC_OPS) {
    api[op] = async (...args: unknown[]) => {
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

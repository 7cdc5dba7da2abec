// A typed call through the bridge (syncBridge.ts) to one of the worker's named operations
// (memoryQueries.ts, searchQueries.ts, vectorQueries.ts): its arguments after the scope the worker supplies, and its
// answer, checked against the operation's own signature.

import type { memoryQueries } from './memoryQueries';
import type { searchQueries } from './searchQueries';
import type { SyncBridge } from './syncBridge';
import type { vectorQueries } from './vectorQueries';

type Queries = typeof memoryQueries & typeof searchQueries & typeof vectorQueries;
/** An operation's arguments after its scope, which the worker supplies. */
type Args<K extends keyof Queries> = Parameters<Queries[K]> extends [unknown, ...infer Rest] ? Rest : never;
type Answer<K extends keyof Queries> = Awaited<ReturnType<Queries[K]>>;

export type PortCall = <K extends keyof Queries>(op: K, ...args: Args<K>) => Answer<K>;

/** Calls on one repository's rows: the scope's own id goes with every call. */
export function portCall(bridge: SyncBridge, repoId: number): PortCall {
  return (op, ...args) => bridge.callIn(repoId, op, args);
}

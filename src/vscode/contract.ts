// Operations other parts of Lore provide that this door calls when they exist (drift, team
// bundles), with the shapes agreed between them. Until an operation is in the host's
// RPC table the door degrades and says so in the log; `supports` is the one place that asks.

import { RPC_OPS, type EngineApi } from '../host/engineApi';
import type { Actor, DriftFinding, DriftState } from '../engine';

export type { DriftFinding, DriftState } from '../engine';

export interface ContractOps {
  driftCheck(paths: string[]): Promise<DriftFinding[]>;
  driftFindings(filter?: { key?: string; path?: string; states?: DriftState[] }): Promise<DriftFinding[]>;
  reverify(actor: Actor, key: string): Promise<unknown>;
  exportBundle(filter?: Record<string, unknown>): Promise<unknown>;
  importBundle(actor: Actor, bundle: unknown, options: { dryRun?: boolean; replace?: boolean }): Promise<unknown>;
  canonicalize(actor: Actor, key: string, options: { as: 'adr' | 'record' }): Promise<unknown>;
}

/** The host's API; an agreed op the host already has keeps the host's own signature. */
export type LoreApi = EngineApi & Omit<ContractOps, keyof EngineApi>;

/** Whether this build's host can run `op` (locally and on an owner of the same build). */
export function supports(op: string): boolean {
  return (RPC_OPS as readonly string[]).includes(op);
}

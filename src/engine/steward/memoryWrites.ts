// The memory writes the steward and the Inbox make, as a port: the steward decides what to do and
// the engine (L3, engine.ts) passes in memory's own save and lifecycle paths to do it, so a feature
// never imports a sibling. Shapes are the parts of memory's results the steward reads.

import type { EngineContext } from '../context';
import type { RememberInput } from '../model/types';
import type { Actor } from '../ports';

export type StewardSaveResult =
  { saved: true; key: string; version: number; unchanged: boolean } | { saved: false; conflict: { reason: string } };

export interface MemoryWrites {
  save(ctx: EngineContext, actor: Actor, input: RememberInput): StewardSaveResult;
  supersede(ctx: EngineContext, actor: Actor, oldKey: string, newKey: string): { valid_from: string };
  promote(ctx: EngineContext, actor: Actor, key: string): { key: string; version: number };
  setStatus(
    ctx: EngineContext,
    actor: Actor,
    key: string,
    status: 'deprecated' | 'disputed' | 'retracted',
    reason: unknown,
  ): unknown;
}

// The door's view of the store: the engine's own API (EngineApi), nothing added or degraded. The
// host's RPC table is the list of operations, so every one of them is there locally and remotely.

import type { EngineApi } from '../host/engineApi';

export type { DriftFinding, DriftState } from '../engine';

export type LoreApi = EngineApi;

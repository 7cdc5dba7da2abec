// What the PostgreSQL adapter takes from the engine's record layer, in one file: the audit chain's
// hashing and the memory row's shape. The engine's layering is being reshaped (src/engine/record/);
// when these move, only this file follows them.

export {
  GENESIS_HASH,
  actorLabel,
  eventHash,
  nextAuditEvent,
  type AuditEvent,
  type AuditEventInput,
} from '../../../engine/record/audit';
export { canonicalJson, sha256 } from '../../../engine/model/digest';
export { MEMORY_COLUMNS, type MemoryRow } from '../../../engine/record/rows';

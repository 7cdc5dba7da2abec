// Seals, all of them: what `lore doctor` and `lore audit verify` report of every sealed row (a memory
// version's content and state, a history event, an author's key and trust), and the one repair a
// person may make: writing back the values Lore sealed. Restoring is the documented choice over
// sealing again: the sealed values are the ones Lore wrote and signed, so a repair never makes an
// edit made outside Lore look like Lore's own. A row whose seal itself was edited has no trusted
// values to restore: it is listed for the person to forget, or to restore from an export.

import { LoreError } from '../errors';
import type { EngineContext } from '../context';
import type { Actor } from '../ports';
import { nowIso } from '../context';
import { authorRow, authorVerdict, everyAuthorRow, localStoreId, restoreAuthorFields } from './integrity';
import { eventVerdict, everyEventRow, restoreEventFields, type EventRow } from './events';
import { restoreRowFields, rowById, type MemoryRow } from './rows';
import { dropMemoryVector, memoryVectorProblems, vectorRowProblems } from './vectors';
import { rowState, sealedState, stateIdentity } from './state';
import { checkSeal, describeDifference, type SealDifference, type SealVerdict } from './seal';
import { verifyPayload } from './signatures';
import { canonicalJson, digestOf } from '../model/digest';

export type SealedTable = 'memories' | 'memory_events' | 'authors' | 'memory_vectors';

/** A sealed row that does not match its seal. */
export interface SealProblem {
  table: SealedTable;
  /** The row in a person's words: `key v2`, `history event 7 (key v1)`, `author ed25519:…`. */
  row: string;
  /** The memory key the row belongs to (null for an author). */
  key: string | null;
  reason: string;
  /** Field by field, sealed → current; empty when the seal itself cannot be trusted. */
  differences: SealDifference[];
  /** Whether `lore doctor --repair` can write the sealed values back. */
  repairable: boolean;
}

export interface RepairResult {
  restored: Array<{ table: SealedTable; row: string; fields: string[] }>;
  /** Rows with no trusted values to restore: what a person does instead. */
  left: Array<{ table: SealedTable; row: string; reason: string }>;
}

interface Found extends SealProblem {
  restore?: () => void;
}

/** A signature check with the signer's key: this machine's own, or an author whose row holds its seal. */
function verifier(ctx: EngineContext): (signer: string, payload: string, signature: string) => boolean {
  return (signer, payload, signature) => {
    if (signer === ctx.signer.keyId) return verifyPayload(ctx.signer.publicKey, payload, signature);
    const row = authorRow(ctx.db, signer);
    return row !== undefined && authorVerdict(ctx, row).ok && verifyPayload(row.public_key, payload, signature);
  };
}

/** Whether a history row holds its seal (forget seals again only the rows that did). */
export function eventHolds(ctx: EngineContext, row: EventRow): boolean {
  return eventVerdict(localStoreId(ctx.db), row, verifier(ctx)).ok;
}

function stateVerdict(ctx: EngineContext, row: MemoryRow): SealVerdict {
  const seal = {
    sealed: row.state_sealed ?? undefined,
    signature: row.state_signature ?? undefined,
    signer: row.state_signer ?? undefined,
  };
  return checkSeal(seal, stateIdentity(ctx.storeId, row), sealedState(rowState(row)), verifier(ctx));
}

/** A sealed state value as its column holds it (provenance and origin are JSON text). */
function columnValue(field: string, value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (field === 'provenance' || field === 'origin') return JSON.stringify(value);
  return value as string | number;
}

function memoryProblems(ctx: EngineContext): Found[] {
  const found: Found[] = [];
  for (const row of ctx.memories.everyRow()) {
    const verdict = ctx.integrity.check(row);
    if (verdict.ok) continue;
    const name = `${row.key} v${row.version}`;
    let state: SealVerdict;
    try {
      state = stateVerdict(ctx, row);
    } catch {
      state = { ok: false, authentic: false, reason: verdict.reason };
    }
    // Only the state is restored from its seal; an edited content has no sealed copy here.
    const stateOnly = !state.ok && state.authentic && verdict.reason === state.reason;
    const repairable = stateOnly && ctx.memories.kind === 'sqlite';
    const differences = !state.ok && state.authentic ? state.differences : [];
    found.push({
      table: 'memories',
      row: name,
      key: row.key,
      reason: verdict.reason,
      differences,
      repairable,
      restore: repairable
        ? () =>
            restoreRowFields(
              ctx.db,
              row.id,
              Object.fromEntries(differences.map((d) => [d.field, columnValue(d.field, d.sealed)])),
            )
        : undefined,
    });
  }
  return found;
}

function eventProblems(ctx: EngineContext): Found[] {
  const storeId = localStoreId(ctx.db);
  const verify = verifier(ctx);
  const found: Found[] = [];
  for (const row of everyEventRow(ctx.db)) {
    const verdict = eventVerdict(storeId, row, verify);
    if (verdict.ok) continue;
    found.push({
      table: 'memory_events',
      key: row.key,
      row: `history event ${row.id} (${canonicalJson(row.key).slice(0, 80)} v${row.version})`,
      reason: verdict.reason,
      differences: verdict.authentic ? verdict.differences : [],
      repairable: verdict.authentic,
      restore: verdict.authentic ? () => restoreEventFields(ctx.db, row.id, row.sealed!) : undefined,
    });
  }
  return found;
}

function authorProblems(ctx: EngineContext): Found[] {
  const found: Found[] = [];
  for (const row of everyAuthorRow(ctx.db)) {
    const verdict = authorVerdict(ctx, row);
    if (verdict.ok) continue;
    found.push({
      table: 'authors',
      key: null,
      row: `author ${row.key_id}`,
      reason: verdict.reason,
      differences: verdict.authentic ? verdict.differences : [],
      repairable: verdict.authentic,
      restore: verdict.authentic ? () => restoreAuthorFields(ctx.db, row.key_id, row.sealed!) : undefined,
    });
  }
  return found;
}

/** A vector has no sealed copy to restore: the repair drops it, and the next index embeds the version again. */
function vectorProblems(ctx: EngineContext): Found[] {
  const shared = ctx.memories.search?.vectors;
  // A store that keeps the vectors itself (PostgreSQL) hands its rows over; they are sealed with its store id.
  if (shared) {
    const { rows, centres } = shared.sealedRows();
    const owners = new Map(rows.map((r) => [r.memory_id, r]));
    return vectorRowProblems(rows, ctx.storeId, verifier(ctx), (model) => centres[model]).map((v) => {
      const owner = owners.get(v.memory_id)!;
      return {
        table: 'memory_vectors' as const,
        key: owner.key,
        row: `the ${v.model} vector of ${owner.key} v${owner.version}`,
        reason: v.reason,
        differences: [],
        repairable: true,
        restore: () => shared.drop(v.memory_id, v.model),
      };
    });
  }
  return memoryVectorProblems(ctx.db, localStoreId(ctx.db), verifier(ctx)).map((v) => {
    const owner = rowById(ctx.db, v.memory_id);
    return {
      table: 'memory_vectors' as const,
      key: owner?.key ?? null,
      row: `the ${v.model} vector of ${owner ? `${owner.key} v${owner.version}` : `memory row ${v.memory_id}`}`,
      reason: v.reason,
      differences: [],
      repairable: true,
      restore: () => dropMemoryVector(ctx.db, v.memory_id, v.model),
    };
  });
}

function findProblems(ctx: EngineContext): Found[] {
  // Authors first: a memory version signed by an edited author reads as refused until it is restored.
  return [...authorProblems(ctx), ...memoryProblems(ctx), ...eventProblems(ctx), ...vectorProblems(ctx)];
}

/** Every sealed row that does not match its seal, with what changed. */
export function sealProblems(ctx: EngineContext): SealProblem[] {
  return findProblems(ctx).map(({ restore: _restore, ...problem }) => problem);
}

/** What a person was shown, as a digest: a repair restores only the differences they saw. */
export function problemsDigest(problems: readonly SealProblem[]): string {
  return digestOf(problems);
}

/** One line a person reads: the row, then each field as sealed → found. */
export function describeProblem(problem: SealProblem): string {
  const changes = problem.differences.map(describeDifference);
  return changes.length ? `${problem.row}: ${changes.join('; ')}` : `${problem.row}: ${problem.reason}`;
}

/**
 * Writes the sealed values back into every row whose seal holds but whose fields were edited.
 * A person's act only (`lore doctor --repair`, with its one-time code); the audit chain records it.
 */
export function repairSeals(ctx: EngineContext, actor: Actor, shown?: string): RepairResult {
  if (!actor.human) {
    throw new LoreError(
      'HUMAN_ONLY',
      "repairing sealed records is a person's act and was not confirmed by one",
      'run `lore doctor --repair` yourself in an interactive terminal',
    );
  }
  return ctx.memories.transaction(() => {
    // The person confirmed the differences they were shown: if the store changed since, nothing is done.
    if (shown !== undefined && shown !== problemsDigest(sealProblems(ctx))) {
      throw new LoreError(
        'INVALID_STATE',
        'the sealed records changed after the differences were shown, so nothing was restored',
        'run `lore doctor --repair` again and read the differences it shows',
      );
    }
    const result: RepairResult = { restored: [], left: [] };
    // Authors are restored before the rows they sign are looked at again.
    for (const pass of [authorProblems, memoryProblems, eventProblems, vectorProblems]) {
      for (const problem of pass(ctx)) {
        if (problem.restore) {
          problem.restore();
          const fields =
            problem.table === 'memory_vectors'
              ? ['vector (dropped; the next index embeds it again)']
              : problem.differences.map((d) => d.field);
          result.restored.push({ table: problem.table, row: problem.row, fields });
        } else {
          result.left.push({ table: problem.table, row: problem.row, reason: problem.reason });
        }
      }
    }
    if (result.restored.length) {
      ctx.memories.appendAudit(actor, nowIso(ctx), {
        event: 'store.repair',
        digests: { restored: result.restored.length, left: result.left.length },
      });
    }
    return result;
  });
}

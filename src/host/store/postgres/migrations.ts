// PostgreSQL's own versioned schema for a shared Lore store. It holds what a SQLite store holds
// (src/engine/store/migrations.ts, schema 13): memories and their versions, lifecycle events, the
// audit chain and its head, authors and trust, the Inbox, drift references and dismissals, and the
// docs index, every row scoped to a repository (identified by its remote URL, repository.ts).
// Everything lives in its own schema, `lore`, so nothing lands among a team's other tables.
//
// lore.schema_migrations records each version applied, when, by whom and by which Lore. Migrating
// holds an advisory lock, so two clients starting at once apply each version exactly once; a
// store whose schema is newer than this Lore is refused, naming the version it needs.

import type { PoolClient } from 'pg';
import { LoreError } from '../../../engine';
import { LOCK_CLASS, LOCK_MIGRATE } from './locks';

import { MIGRATIONS, PG_SCHEMA } from './migrationSteps';

export { PG_SCHEMA };

export const PG_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

async function schemaExists(client: PoolClient): Promise<boolean> {
  const found = await client.query("SELECT to_regclass('lore.schema_migrations') IS NOT NULL AS present");
  return (found.rows[0] as { present: boolean }).present;
}

export interface SchemaState {
  version: number;
  /** The Lore that applied the newest version (what a newer schema needs). */
  appliedBy: string | null;
}

export async function pgSchemaState(client: PoolClient): Promise<SchemaState> {
  if (!(await schemaExists(client))) return { version: 0, appliedBy: null };
  const result = await client.query(
    'SELECT version, lore_version FROM lore.schema_migrations ORDER BY version DESC LIMIT 1',
  );
  const row = result.rows[0] as { version: number; lore_version: string } | undefined;
  return { version: row?.version ?? 0, appliedBy: row?.lore_version ?? null };
}

/** Refuses a schema newer than this Lore: nothing is read or written in it. */
export function refuseNewer(state: SchemaState, label: string): void {
  if (state.version <= PG_SCHEMA_VERSION) return;
  throw new LoreError(
    'STORE_TOO_NEW',
    `the PostgreSQL store at ${label} has schema version ${state.version}, newer than this Lore understands ` +
      `(${PG_SCHEMA_VERSION})`,
    `it needs a Lore that knows schema version ${state.version}` +
      `${state.appliedBy ? ` (Lore ${state.appliedBy} or newer)` : ''}: upgrade Lore; the store was left untouched`,
    { schema_version: state.version, understood: PG_SCHEMA_VERSION },
  );
}

export interface MigrateResult {
  from: number;
  to: number;
  applied: { version: number; description: string }[];
}

/**
 * Brings the schema up to date, each version in its own transaction, under an advisory lock held
 * for the whole run (a second client waits, then finds nothing left to do).
 */
export async function migratePostgres(client: PoolClient, label: string, loreVersion: string): Promise<MigrateResult> {
  await client.query('SELECT pg_advisory_lock($1, $2)', [LOCK_CLASS, LOCK_MIGRATE]);
  try {
    const { version: from, appliedBy } = await pgSchemaState(client);
    refuseNewer({ version: from, appliedBy }, label);
    const applied: MigrateResult['applied'] = [];
    for (const migration of MIGRATIONS.filter((m) => m.version > from)) {
      await client.query('BEGIN');
      try {
        await client.query(`CREATE SCHEMA IF NOT EXISTS ${PG_SCHEMA}`);
        await client.query(`SET LOCAL search_path TO ${PG_SCHEMA}`);
        if (migration.version === 1) {
          await client.query(`
            CREATE TABLE IF NOT EXISTS schema_migrations (
              version INTEGER PRIMARY KEY,
              description TEXT NOT NULL,
              lore_version TEXT NOT NULL,
              applied_at TIMESTAMPTZ NOT NULL DEFAULT now(),
              applied_by TEXT NOT NULL DEFAULT current_user
            )`);
        }
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (version, description, lore_version) VALUES ($1, $2, $3)', [
          migration.version,
          migration.description,
          loreVersion,
        ]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
      applied.push({ version: migration.version, description: migration.description });
    }
    return { from, to: Math.max(from, PG_SCHEMA_VERSION), applied };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_CLASS, LOCK_MIGRATE]).catch(() => {});
  }
}

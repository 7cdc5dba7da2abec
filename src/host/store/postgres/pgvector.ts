// Whether the server has pgvector. Lore never requires it and never installs it (an extension is
// the database owner's choice): memory vectors are stored as float32 bytes with their sign codes and
// searched by vectorQueries.ts on any PostgreSQL ≥ 15. `lore doctor` reports what it found, so a
// platform team knows whether the extension is there.

import type { PoolClient } from 'pg';

/** installed: in this database; available: on the server, not created here; absent: not on the server. */
export type PgvectorState = 'installed' | 'available' | 'absent';

export async function pgvectorState(client: PoolClient): Promise<PgvectorState> {
  const found = await client.query(
    "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS installed, " +
      "EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available",
  );
  const { installed, available } = found.rows[0] as { installed: boolean; available: boolean };
  return installed ? 'installed' : available ? 'available' : 'absent';
}

/** What `lore doctor` says of it. */
export function describePgvector(state: PgvectorState): string {
  if (state === 'installed') return 'pgvector installed';
  if (state === 'available') return 'pgvector available on the server, not created in this database';
  return 'no pgvector (vectors are searched by their sign codes, as on SQLite)';
}

// `lore doctor`'s check of a shared store: when --store or LORE_STORE names a PostgreSQL store, it
// connects (within the connect timeout), and reports where (host:port/database, never the
// password), whether the connection is encrypted, the schema version against this Lore's, and
// whether the server has pgvector (never required).
// Without the setting there is no such check: the SQLite store is the default.

import { connectPostgres, storeError } from '../host/store/postgres/connect';
import { PG_SCHEMA_VERSION, pgSchemaState } from '../host/store/postgres/migrations';
import { describePgvector, pgvectorState } from '../host/store/postgres/pgvector';
import { chooseStore } from '../host/store/storeSetting';

export interface StoreCheck {
  name: string;
  ok: boolean;
  detail: string;
}

export async function sharedStoreCheck(env: NodeJS.ProcessEnv, flag?: string): Promise<StoreCheck | undefined> {
  let chosen;
  try {
    chosen = chooseStore(flag, env);
  } catch (error) {
    return { name: 'shared store', ok: false, detail: (error as Error).message };
  }
  if (chosen.kind !== 'postgresql') return undefined;
  const { settings } = chosen;
  const where = `PostgreSQL at ${settings.label}`;
  try {
    const connection = await connectPostgres(settings, 1);
    try {
      const client = await connection.client();
      try {
        const { version } = await pgSchemaState(client);
        const schema =
          version === PG_SCHEMA_VERSION
            ? `schema version ${version}`
            : version < PG_SCHEMA_VERSION
              ? `schema version ${version}, this Lore needs ${PG_SCHEMA_VERSION}: run lore store migrate`
              : `schema version ${version}, newer than this Lore understands (${PG_SCHEMA_VERSION}): upgrade Lore`;
        const vectors = describePgvector(await pgvectorState(client));
        return {
          name: 'shared store',
          ok: version === PG_SCHEMA_VERSION,
          detail: `${where} (${connection.tls ? 'TLS' : 'not encrypted'}), ${schema}, ${vectors}`,
        };
      } finally {
        client.release();
      }
    } finally {
      await connection.end().catch(() => {});
    }
  } catch (error) {
    const e = storeError(error, settings);
    return { name: 'shared store', ok: false, detail: `${e.message}${e.hint ? ` — ${e.hint}` : ''}` };
  }
}

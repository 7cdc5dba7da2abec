// `lore store migrate|status [--store URL]`: a shared PostgreSQL store's schema, by itself. A platform
// team runs `migrate` from a deploy job with a role that may create tables; `status` says which
// store Lore would use and at which schema version, changing nothing. The store is --store, else
// LORE_STORE (a postgresql:// URL, with PG* variables for what it leaves out).

import { connectPostgres, storeError } from '../../host/store/postgres/connect';
import { PG_SCHEMA_VERSION, pgSchemaState } from '../../host/store/postgres/migrations';
import { migrateStore } from '../../host/store/postgres/postgresStore';
import { chooseStore } from '../../host/store/storeSetting';
import type { Command } from '../command';
import { LORE_VERSION } from '../../engine';
import { UsageError } from '../parse';

const USAGE = 'lore store migrate [--store URL] | lore store status [--store URL]';

function postgresSettings(flag: unknown) {
  const chosen = chooseStore(typeof flag === 'string' ? flag : undefined, process.env);
  if (chosen.kind !== 'postgresql')
    throw new UsageError(
      'no PostgreSQL store is set: the store is the SQLite file in the data directory, which migrates itself',
      'give --store postgresql://… or set LORE_STORE',
    );
  return chosen.settings;
}

export const storeCommand: Command = {
  name: 'store',
  summary: "migrate a shared PostgreSQL store's schema by itself, or show which store is in use",
  usage: USAGE,
  options: { store: { type: 'string' } },
  positionals: { min: 1, max: 1, names: 'migrate | status' },
  async run(ctx, v, [sub]) {
    if (sub === 'migrate') {
      const result = await migrateStore(postgresSettings(v.store), LORE_VERSION);
      ctx.print(result, (r) =>
        r.applied.length === 0
          ? `${r.label}: schema is up to date (version ${r.to})`
          : [
              `${r.label}: schema migrated from version ${r.from} to ${r.to}`,
              ...r.applied.map((m) => `  ${m.version}: ${m.description}`),
            ].join('\n'),
      );
      return 0;
    }
    if (sub !== 'status') throw new UsageError(`unknown store command "${sub}"`, `use: ${USAGE}`);
    const settings = postgresSettings(v.store);
    const connection = await connectPostgres(settings, 1);
    try {
      const client = await connection.client();
      try {
        const state = await pgSchemaState(client);
        const status = {
          kind: 'postgresql' as const,
          store: settings.label,
          tls: connection.tls,
          schema_version: state.version,
          understood: PG_SCHEMA_VERSION,
        };
        ctx.print(
          status,
          (s) =>
            `${s.store} (PostgreSQL, ${s.tls ? 'TLS' : 'not encrypted'}): schema version ${s.schema_version}` +
            (s.schema_version < s.understood
              ? ` — run lore store migrate (this Lore needs ${s.understood})`
              : s.schema_version > s.understood
                ? ` — newer than this Lore understands (${s.understood}): upgrade Lore`
                : ''),
        );
        return state.version === PG_SCHEMA_VERSION ? 0 : 1;
      } finally {
        client.release();
      }
    } catch (error) {
      throw storeError(error, settings);
    } finally {
      await connection.end().catch(() => {});
    }
  },
};

// Which store Lore uses: `--store URL` over LORE_STORE; neither means the SQLite file in the data
// directory (the default, unchanged). A PostgreSQL URL is parsed with the PG* variables
// (connectionSettings.ts); anything else is refused, and never echoed with its password.

import { LoreError } from '../../engine';
import { isPostgresUrl, parsePostgresSettings, pgEnv, type PostgresSettings } from './postgres/connectionSettings';

export type StoreSetting = { kind: 'sqlite' } | { kind: 'postgresql'; settings: PostgresSettings };

function schemeOf(value: string): string {
  const scheme = /^[a-z][a-z0-9+.-]{0,20}:/i.exec(value)?.[0];
  return scheme ?? value.slice(0, 1);
}

/** The store named by the --store flag, else LORE_STORE, else the SQLite default. */
export function chooseStore(flag: string | undefined, env: NodeJS.ProcessEnv): StoreSetting {
  const given = flag?.trim() || env.LORE_STORE?.trim();
  if (!given) return { kind: 'sqlite' };
  if (!isPostgresUrl(given))
    throw new LoreError(
      'INVALID_INPUT',
      // Only the scheme is echoed: the value may hold a password.
      `${flag?.trim() ? '--store' : 'LORE_STORE'} is not a postgresql:// URL (it begins "${schemeOf(given)}")`,
      'give postgresql://user@host:5432/database, or leave it unset to use the SQLite store in the data directory',
    );
  return { kind: 'postgresql', settings: parsePostgresSettings(given, pgEnv(env)) };
}

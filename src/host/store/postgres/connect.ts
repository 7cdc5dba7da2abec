// Opening a PostgreSQL store: a connection pool from the parsed settings, libpq's `prefer`
// (TLS when the server offers it, else plain) settled once by a first connection, and every
// failure turned into a LoreError that names host:port/database and never the password.

import type { Pool, PoolClient, PoolConfig } from 'pg';
import { LoreError } from '../../../engine';
import { redactUrl, type PostgresSettings } from './connectionSettings';
import { PG_SCHEMA } from './migrations';

const INT8_OID = 20;

/**
 * The driver, required when a PostgreSQL store is first opened: loading `pg` at start-up pulls in
 * undici through Node's fetch getter, a cost every one-shot command paid for a store it never opens.
 */
const pg = () => require('pg') as typeof import('pg');

/** BIGINT ids and counts read as numbers (they stay far below 2^53), like SQLite's integers. */
const typeParser = ((oid: number, format?: string) =>
  oid === INT8_OID && format !== 'binary'
    ? (value: string) => Number(value)
    : pg().types.getTypeParser(oid, format as 'text')) as ReturnType<typeof pg>['types']['getTypeParser'];

/** SQLSTATE codes of failures a person must act on, in their words. */
const SQLSTATE_WORDS: Record<string, string> = {
  '28P01': 'refused the password',
  '28000': 'refused the connection (pg_hba.conf has no entry allowing this user and address)',
  '3D000': 'has no such database',
  '42501': 'denied a permission Lore needs',
  '53300': 'has too many connections',
  '57P01': 'was shut down while Lore was using it',
  '57P02': 'was shut down while Lore was using it',
  '57P03': 'is starting up or shutting down',
};

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
]);

/** Message text with the password (if any) and any URL's password taken out. */
export function withoutSecrets(text: string, settings: Pick<PostgresSettings, 'password'>): string {
  let clean = redactUrl(text);
  if (settings.password) clean = clean.split(settings.password).join('***');
  return clean;
}

/** Whether an error means the server went away (restart, network): the work may be retried. */
export function isConnectionLoss(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  if (e?.code && (UNREACHABLE_CODES.has(e.code) || e.code === 'ECONNRESET' || e.code === 'EPIPE')) return true;
  if (e?.code && ['57P01', '57P02', '57P03', '08000', '08003', '08006'].includes(e.code)) return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(e?.message ?? '');
}

/** The LoreError a person sees for a failure talking to the store. */
export function storeError(error: unknown, settings: PostgresSettings): LoreError {
  if (error instanceof LoreError) return error;
  const e = error as { code?: string; message?: string };
  const where = `the PostgreSQL store at ${settings.label}`;
  const raw = withoutSecrets(e?.message ?? String(error), settings);
  if (e?.code && UNREACHABLE_CODES.has(e.code)) {
    return new LoreError(
      'STORE_UNAVAILABLE',
      `cannot reach ${where}: ${e.code === 'ECONNREFUSED' ? 'connection refused' : raw}`,
      'check that the server is running and that LORE_STORE (or --store) names it',
      { store: settings.label, code: e.code },
    );
  }
  if (/timeout/i.test(e?.message ?? '')) {
    return new LoreError(
      'STORE_UNAVAILABLE',
      `cannot reach ${where}: no answer within ${settings.connectTimeoutMs / 1000} s`,
      'check that the server is running, reachable from here, and that LORE_STORE (or --store) names it',
      { store: settings.label, code: 'ETIMEDOUT' },
    );
  }
  const words = e?.code ? SQLSTATE_WORDS[e.code] : undefined;
  if (words) {
    return new LoreError('STORE_UNAVAILABLE', `${where} ${words} (user ${settings.user})`, undefined, {
      store: settings.label,
      code: e.code,
    });
  }
  if (isConnectionLoss(error)) {
    return new LoreError(
      'STORE_UNAVAILABLE',
      `lost the connection to ${where}: ${raw}`,
      'the write may not have happened: retry it (saves with expected_version are safe to retry)',
      { store: settings.label, code: e?.code ?? 'CONNECTION_LOST' },
    );
  }
  return new LoreError('STORE_UNAVAILABLE', `${where} failed: ${raw}`, undefined, {
    store: settings.label,
    ...(e?.code ? { code: e.code } : {}),
  });
}

function poolConfig(settings: PostgresSettings, tls: boolean, max: number): PoolConfig {
  return {
    host: settings.host,
    port: settings.port,
    database: settings.database,
    user: settings.user,
    ...(settings.password !== undefined ? { password: settings.password } : {}),
    ssl: tls ? settings.tls : false,
    application_name: settings.applicationName,
    // Lore's tables live in their own schema (migrations.ts); queries name them unqualified.
    options: `-c search_path=${PG_SCHEMA}`,
    types: { getTypeParser: typeParser },
    connectionTimeoutMillis: settings.connectTimeoutMs,
    keepAlive: true,
    max,
    // Idle connections are closed rather than kept open against a shared server.
    idleTimeoutMillis: 10_000,
  };
}

/** A pool whose errors are LoreErrors. Release clients with `release()`; `end()` closes the pool. */
export interface PostgresConnection {
  settings: PostgresSettings;
  /** Whether the connection is encrypted (TLS). */
  tls: boolean;
  client(): Promise<PoolClient>;
  end(): Promise<void>;
}

function makePool(settings: PostgresSettings, tls: boolean, max: number): Pool {
  const pool = new (pg().Pool)(poolConfig(settings, tls, max));
  // An idle client losing its server (a restart) must not crash the process: the next checkout
  // makes a fresh connection, and the work in flight already got its own error.
  pool.on('error', () => {});
  return pool;
}

/** Connects once (proving the server is there and settling TLS), then hands out pooled clients. */
export async function connectPostgres(settings: PostgresSettings, max = 4): Promise<PostgresConnection> {
  const tryTls = settings.sslMode !== 'disable';
  let tls = tryTls;
  let pool = makePool(settings, tls, max);
  try {
    const first = await pool.connect();
    first.release();
  } catch (error) {
    await pool.end().catch(() => {});
    const noTls = /does not support SSL/i.test((error as Error)?.message ?? '');
    if (!(noTls && (settings.sslMode === 'prefer' || settings.sslMode === 'allow'))) throw storeError(error, settings);
    tls = false;
    pool = makePool(settings, tls, max);
    try {
      const first = await pool.connect();
      first.release();
    } catch (second) {
      await pool.end().catch(() => {});
      throw storeError(second, settings);
    }
  }
  return {
    settings,
    tls,
    client: async () => {
      try {
        return await pool.connect();
      } catch (error) {
        throw storeError(error, settings);
      }
    },
    end: () => pool.end(),
  };
}

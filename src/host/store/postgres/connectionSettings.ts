// Where a PostgreSQL store is and how to reach it: a standard connection URL
// (postgresql://user:password@host:port/database?sslmode=…) with libpq's PG* environment variables
// filling what the URL leaves out, as psql would. The result carries a label (host:port/database)
// for every message a person sees: the password is never in a label, a message or a log line.

import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import type { ConnectionOptions } from 'node:tls';
import { LoreError } from '../../../engine';

export const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;
export type SslMode = (typeof SSL_MODES)[number];

export interface PostgresSettings {
  host: string;
  port: number;
  database: string;
  user: string;
  /** Undefined: none given (the server may still take a ~/.pgpass entry or trust). */
  password?: string;
  sslMode: SslMode;
  /** TLS options for the modes that use TLS; the certificate files are read when parsed. */
  tls: ConnectionOptions;
  applicationName: string;
  /** How long a connection attempt may take before it is reported as unreachable. */
  connectTimeoutMs: number;
  /** host:port/database — what every message names. Never the user's password. */
  label: string;
}

/** The environment variables libpq reads that Lore honours. */
export type PgEnv = Partial<
  Record<
    | 'PGHOST'
    | 'PGPORT'
    | 'PGDATABASE'
    | 'PGUSER'
    | 'PGPASSWORD'
    | 'PGSSLMODE'
    | 'PGSSLROOTCERT'
    | 'PGSSLCERT'
    | 'PGSSLKEY'
    | 'PGAPPNAME'
    | 'PGCONNECT_TIMEOUT',
    string
  >
>;

/** Every command must say "unreachable" within 5 s: the attempt gets a little less than that. */
const DEFAULT_CONNECT_TIMEOUT_MS = 4000;

export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value.trim());
}

function bad(message: string): LoreError {
  return new LoreError(
    'INVALID_INPUT',
    message,
    'use a connection URL like postgresql://user@host:5432/lore?sslmode=verify-full (the password can come from PGPASSWORD)',
  );
}

/** The URL with any password replaced, for the one place a URL itself must be shown. */
export function redactUrl(text: string): string {
  return text.replace(/(postgres(?:ql)?:\/\/[^:/@\s]*):\S*@/gi, '$1:***@').replace(/([?&]password=)[^&\s]*/gi, '$1***');
}

function readCertificate(what: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw bad(`cannot read the ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
}

/**
 * libpq's sslmode, in Node's TLS terms. `prefer` and `allow` try TLS and fall back to a plain
 * connection when the server has none (connect.ts). `require` with a root certificate verifies
 * the chain, as libpq does.
 */
function tlsOptions(mode: SslMode, rootCert?: string, cert?: string, key?: string): ConnectionOptions {
  if (mode === 'disable') return {};
  const files: ConnectionOptions = {
    ...(rootCert ? { ca: readCertificate('root certificate (sslrootcert)', rootCert) } : {}),
    ...(cert ? { cert: readCertificate('client certificate (sslcert)', cert) } : {}),
    ...(key ? { key: readCertificate('client key (sslkey)', key) } : {}),
  };
  if (mode === 'verify-full') return { ...files, rejectUnauthorized: true };
  if (mode === 'verify-ca' || (mode === 'require' && rootCert)) {
    if (!rootCert) throw bad('sslmode=verify-ca needs the CA that signed the server: give sslrootcert=FILE');
    // The chain is checked, the host name is not (libpq's verify-ca).
    return { ...files, rejectUnauthorized: true, checkServerIdentity: () => undefined };
  }
  return { ...files, rejectUnauthorized: false };
}

function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return 'postgres';
  }
}

/** Parses LORE_STORE / --store and the PG* variables into settings, or a clear error without the password. */
export function parsePostgresSettings(url: string, env: PgEnv = {}): PostgresSettings {
  if (!isPostgresUrl(url)) throw bad('the store setting is not a postgresql:// URL');
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw bad(`the store URL ${redactUrl(url.trim())} is not a valid URL (one host only; escape @ : / in passwords)`);
  }
  const query = parsed.searchParams;
  const known = new Set([
    'sslmode',
    'sslrootcert',
    'sslcert',
    'sslkey',
    'application_name',
    'connect_timeout',
    'host',
    'port',
    'user',
    'password',
    'dbname',
  ]);
  for (const name of query.keys()) if (!known.has(name)) throw bad(`the store URL has an unknown parameter "${name}"`);
  const decode = (value: string) => (value ? decodeURIComponent(value) : '');
  const host = query.get('host') ?? (decode(parsed.hostname).replace(/^\[|\]$/g, '') || env.PGHOST || 'localhost');
  const portText = query.get('port') ?? (parsed.port || env.PGPORT || '5432');
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw bad(`the store URL's port "${portText}" is not a port`);
  const user = query.get('user') ?? (decode(parsed.username) || env.PGUSER || osUser());
  const password = query.get('password') ?? (decode(parsed.password) || env.PGPASSWORD || undefined);
  const database = query.get('dbname') ?? (decode(parsed.pathname.replace(/^\//, '')) || env.PGDATABASE || user);
  const modeText = query.get('sslmode') ?? env.PGSSLMODE ?? 'prefer';
  if (!(SSL_MODES as readonly string[]).includes(modeText))
    throw bad(`sslmode "${modeText}" is not one of ${SSL_MODES.join(', ')}`);
  const sslMode = modeText as SslMode;
  const timeoutText = query.get('connect_timeout') ?? env.PGCONNECT_TIMEOUT;
  const timeoutSeconds = timeoutText === undefined ? undefined : Number(timeoutText);
  if (timeoutSeconds !== undefined && !(timeoutSeconds > 0))
    throw bad(`connect_timeout "${timeoutText}" is not a number of seconds`);
  return {
    host,
    port,
    database,
    user,
    ...(password !== undefined ? { password } : {}),
    sslMode,
    tls: tlsOptions(
      sslMode,
      query.get('sslrootcert') ?? env.PGSSLROOTCERT,
      query.get('sslcert') ?? env.PGSSLCERT,
      query.get('sslkey') ?? env.PGSSLKEY,
    ),
    applicationName: query.get('application_name') ?? env.PGAPPNAME ?? 'lore',
    connectTimeoutMs: timeoutSeconds === undefined ? DEFAULT_CONNECT_TIMEOUT_MS : Math.round(timeoutSeconds * 1000),
    label: `${host.includes(':') ? `[${host}]` : host}:${port}/${database}`,
  };
}

/** The PG* variables from a process environment (the host reads env; the engine never does). */
export function pgEnv(env: NodeJS.ProcessEnv): PgEnv {
  const picked: PgEnv = {};
  for (const [name, value] of Object.entries(env))
    if (name.startsWith('PG') && value !== undefined) (picked as Record<string, string>)[name] = value;
  return picked;
}

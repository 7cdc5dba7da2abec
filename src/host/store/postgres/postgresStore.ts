// A shared Lore store on PostgreSQL ≥ 15: opens a pool (connect.ts), checks the schema (refusing a
// newer one, migrating an older one unless told not to), scopes work to a repository and offers the
// record-level operations (records.ts). Saves are retried through a lost connection (a restarted
// server) under their write id, so a retry never writes twice and an acknowledged save is kept.

import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import { LoreError } from '../../../engine';
import { connectPostgres, isConnectionLoss, storeError, type PostgresConnection } from './connect';
import type { PostgresSettings } from './connectionSettings';
import type { AuditEvent, MemoryRow } from './engineRecord';
import { PG_SCHEMA_VERSION, migratePostgres, pgSchemaState, refuseNewer, type MigrateResult } from './migrations';
import { readAuditChain, readMemoryRows, saveVersion, type SaveVersionInput, type SaveVersionResult } from './records';
import { ensureRepository, type RepositoryRow } from './repository';

export interface OpenPostgresOptions {
  /** The Lore version recorded beside each migration it applies. */
  loreVersion: string;
  /** 'auto': apply missing migrations on open (the default, like SQLite); 'check': refuse, naming the command. */
  migrate?: 'auto' | 'check';
  /** Connections in the pool. */
  poolSize?: number;
  /** How long a save keeps retrying through a lost connection before it reports the loss (ms). */
  retryForMs?: number;
}

export interface PostgresStoreInfo {
  kind: 'postgresql';
  label: string;
  tls: boolean;
  schemaVersion: number;
  serverVersion: string;
}

const RETRY_PAUSE_MS = 250;

export class PostgresStore {
  private constructor(
    private readonly connection: PostgresConnection,
    readonly info: PostgresStoreInfo,
    private readonly retryForMs: number,
  ) {}

  static async open(settings: PostgresSettings, options: OpenPostgresOptions): Promise<PostgresStore> {
    const connection = await connectPostgres(settings, options.poolSize ?? 4);
    try {
      const client = await connection.client();
      try {
        const serverVersion = await checkServer(client, settings);
        let state = await pgSchemaState(client);
        refuseNewer(state, settings.label);
        if (state.version < PG_SCHEMA_VERSION) {
          if (options.migrate === 'check')
            throw new LoreError(
              'STORE_UNAVAILABLE',
              `the PostgreSQL store at ${settings.label} has schema version ${state.version}; ` +
                `this Lore needs ${PG_SCHEMA_VERSION}`,
              'run `lore store migrate` (or let Lore migrate on open)',
            );
          await migratePostgres(client, settings.label, options.loreVersion);
          state = await pgSchemaState(client);
        }
        const info: PostgresStoreInfo = {
          kind: 'postgresql',
          label: settings.label,
          tls: connection.tls,
          schemaVersion: state.version,
          serverVersion,
        };
        return new PostgresStore(connection, info, options.retryForMs ?? 15_000);
      } finally {
        client.release();
      }
    } catch (error) {
      await connection.end().catch(() => {});
      throw storeError(error, settings);
    }
  }

  get settings(): PostgresSettings {
    return this.connection.settings;
  }

  /** Runs `work` on one pooled connection; failures become LoreErrors naming the store. */
  async withClient<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.connection.client();
    // A server that goes away while this client is checked out but between queries (a restart)
    // reports it as an 'error' event: the next query fails and is reported; the event must not crash.
    const ignore = () => {};
    client.on('error', ignore);
    let broken = false;
    try {
      return await work(client);
    } catch (error) {
      broken = isConnectionLoss(error);
      throw storeError(error, this.connection.settings);
    } finally {
      // A connection that failed is dropped rather than handed to the next caller.
      client.off('error', ignore);
      client.release(broken);
    }
  }

  /**
   * A pooled connection held until `release` (a transaction that spans several calls, as the
   * engine's memory store port makes them). A connection that failed is dropped on release.
   */
  async checkout(): Promise<{ client: PoolClient; release(error?: unknown): void }> {
    const client = await this.connection.client();
    const ignore = () => {};
    client.on('error', ignore);
    return {
      client,
      release: (error?: unknown) => {
        client.off('error', ignore);
        client.release(error !== undefined && isConnectionLoss(error));
      },
    };
  }

  /** A failure as a LoreError naming the store (never its password). */
  error(error: unknown): LoreError {
    return storeError(error, this.connection.settings);
  }

  /** The repository a workspace's records belong to, by its remote URL. */
  async repository(remote: string): Promise<RepositoryRow> {
    return await this.withClient((client) => ensureRepository(client, remote));
  }

  /**
   * Saves a version (records.ts saveVersion). A lost connection is retried with the same write
   * id until retryForMs has passed, then reported; the retry finds a version that did commit.
   */
  async saveVersion(
    repoId: number,
    input: SaveVersionInput,
    onRetry?: (error: LoreError) => void,
  ): Promise<SaveVersionResult> {
    const attempt = { ...input, writeId: input.writeId ?? randomUUID() };
    const deadline = Date.now() + this.retryForMs;
    for (;;) {
      try {
        return await this.withClient((client) => saveVersion(client, repoId, attempt));
      } catch (error) {
        const lost = error instanceof LoreError && error.code === 'STORE_UNAVAILABLE';
        if (!lost || Date.now() >= deadline) throw error;
        onRetry?.(error);
        await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
      }
    }
  }

  async auditChain(repoId: number): Promise<{ events: AuditEvent[]; head: string | undefined }> {
    return await this.withClient((client) => readAuditChain(client, repoId));
  }

  async memoryRows(repoId: number): Promise<MemoryRow[]> {
    return await this.withClient((client) => readMemoryRows(client, repoId));
  }

  async close(): Promise<void> {
    await this.connection.end();
  }
}

/** Lore supports PostgreSQL 15 and newer: what its tests run on; an older server is refused by name. */
async function checkServer(client: PoolClient, settings: PostgresSettings): Promise<string> {
  const result = await client.query("SELECT current_setting('server_version_num')::int AS num, version() AS text");
  const { num, text } = result.rows[0] as { num: number; text: string };
  if (num < 150000)
    throw new LoreError(
      'STORE_UNAVAILABLE',
      `the PostgreSQL server at ${settings.label} is ${text.split(' ').slice(0, 2).join(' ')}; Lore needs 15 or newer`,
    );
  return text.split(' ').slice(0, 2).join(' ');
}

/** Applies missing migrations and reports them (`lore store migrate`); the store is opened with checks only. */
export async function migrateStore(
  settings: PostgresSettings,
  loreVersion: string,
): Promise<MigrateResult & { label: string }> {
  const connection = await connectPostgres(settings, 1);
  try {
    const client = await connection.client();
    try {
      await checkServer(client, settings);
      return { ...(await migratePostgres(client, settings.label, loreVersion)), label: settings.label };
    } finally {
      client.release();
    }
  } catch (error) {
    throw storeError(error, settings);
  } finally {
    await connection.end().catch(() => {});
  }
}

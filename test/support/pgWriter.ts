// One client process of the PostgreSQL concurrency and restart tests, run as
// `node --import tsx test/support/pgWriter.ts '<json options>'`. It opens the store the way Lore
// does, then saves `count` versions of keys drawn from a small shared set: each read of a key's
// version, then a save with that expected_version and a write id, so writers race for the same
// keys. One JSON line on stdout per outcome (an acknowledged save, or a refusal with the winner),
// then a closing line with how many saves went through a lost connection.

import { parsePostgresSettings } from '../../src/host/store/postgres/connectionSettings';
import { PostgresStore } from '../../src/host/store/postgres/postgresStore';
import { versionBuilder } from './pgRecords';
import { readyThenWait } from './writerProcess';

export interface WriterOptions {
  url: string;
  remote: string;
  writer: number;
  count: number;
  /** How many distinct keys the writers share. */
  keys: number;
  retryForMs: number;
}

export type WriterLine =
  | { type: 'ack'; writer: number; key: string; version: number; digest: string; writeId: string; replayed: boolean }
  | {
      type: 'refused';
      writer: number;
      key: string;
      expected: number;
      winnerVersion: number | null;
      winnerDigest: string | null;
    }
  | { type: 'done'; writer: number; retries: number };

function emit(line: WriterLine): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2]) as WriterOptions;
  const store = await PostgresStore.open(parsePostgresSettings(options.url), {
    loreVersion: 'test',
    poolSize: 1,
    retryForMs: options.retryForMs,
  });
  const repo = await store.repository(options.remote);
  readyThenWait();
  let retries = 0;
  // A cheap deterministic spread of keys per writer (no Math.random: a failure replays the same way).
  let state = options.writer * 7919 + 17;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648);
  for (let i = 0; i < options.count; i++) {
    const key = `contended-${next() % options.keys}`;
    // Read again while the server is away, for a minute at most: a writer never waits for ever.
    const readVersion = async (): Promise<number> => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        try {
          return await store.withClient(async (client) => {
            const found = await client.query(
              'SELECT version FROM memories WHERE repo_id = $1 AND key = $2 AND is_current = 1',
              [repo.id, key],
            );
            return (found.rows[0] as { version: number } | undefined)?.version ?? 0;
          });
        } catch (error) {
          if (Date.now() > deadline) throw error;
          retries++;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
    };
    const expected = await readVersion();
    const at = new Date().toISOString();
    const writeId = `w${options.writer}-${i}`;
    const text = `writer ${options.writer} save ${i}`;
    const result = await store.saveVersion(
      repo.id,
      {
        key,
        expectedVersion: expected,
        writeId,
        actor: { door: 'test', name: `writer-${options.writer}` },
        at,
        build: versionBuilder(key, text, at),
      },
      () => retries++,
    );
    if (result.saved) {
      const digest = versionBuilder(key, text, at)(undefined).row.content_digest;
      emit({
        type: 'ack',
        writer: options.writer,
        key,
        version: result.version,
        digest,
        writeId,
        replayed: result.replayed,
      });
    } else {
      emit({
        type: 'refused',
        writer: options.writer,
        key,
        expected,
        winnerVersion: result.conflict.current_version,
        winnerDigest: result.conflict.current?.content_digest ?? null,
      });
    }
  }
  emit({ type: 'done', writer: options.writer, retries });
  await store.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error)?.message ?? String(error)}\n`);
  process.exit(1);
});

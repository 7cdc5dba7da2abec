// Drift: a decision anchored to a file is flagged in recall once that file changes or goes away;
// a decision whose anchor did not change is not.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Scenario, ScenarioContext, Summary } from '../harness';

const DRIFT_FLAG = /drift|changed|gone|relocated/;

function write(ctx: ScenarioContext, path: string, text: string): void {
  const file = join(ctx.workspace, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

function flagsOf(results: Summary[], key: string): string[] | undefined {
  return results.find((r) => r.key === key)?.flags;
}

export const drift: Scenario[] = [
  {
    id: 'drift-anchor-changed',
    theme: 'drift',
    title: 'a decision whose anchor file changed is flagged in recall; one whose anchor is unchanged is not',
    async run(ctx) {
      write(
        ctx,
        'src/jobs/queue.ts',
        'export function claimNext(db) {\n  return db.query("SELECT * FROM jobs FOR UPDATE SKIP LOCKED LIMIT 1");\n}\n',
      );
      write(ctx, 'src/jobs/retry.ts', 'export const MAX_ATTEMPTS = 5;\n');
      const keys = await ctx.withSession(async (s) => ({
        queue: await s.save({
          type: 'decision',
          title: 'Claim jobs with SKIP LOCKED',
          description: 'Workers claim the next job row with FOR UPDATE SKIP LOCKED',
          anchors: ['src/jobs/queue.ts#claimNext'],
        }),
        retry: await s.save({
          type: 'decision',
          title: 'Jobs retry five times',
          description: 'A failing job is attempted at most five times before it is parked',
          anchors: ['src/jobs/retry.ts'],
        }),
      }));
      // Between sessions someone rewrites the claim to use advisory locks.
      write(
        ctx,
        'src/jobs/queue.ts',
        'export function claimNext(db) {\n  return db.query("SELECT pg_try_advisory_lock(id) FROM jobs LIMIT 1");\n}\n',
      );
      await ctx.withSession(async (s) => {
        const out = await ctx.probe(s, 'how do workers claim jobs', { relevant: [keys.queue, keys.retry] });
        const changed = flagsOf(out.results, keys.queue) ?? [];
        const unchanged = flagsOf(out.results, keys.retry) ?? [];
        ctx.expect(
          changed.some((f) => DRIFT_FLAG.test(f)),
          `drift not implemented: ${keys.queue} is not flagged after its ` +
            `anchor src/jobs/queue.ts changed (flags: ` +
            `${changed.join(', ') || 'none'})`,
        );
        ctx.expect(
          !unchanged.some((f) => DRIFT_FLAG.test(f)),
          `${keys.retry} is flagged although its anchor did not change`,
        );
      });
    },
  },
  {
    id: 'drift-anchor-deleted',
    theme: 'drift',
    title: 'a runbook whose anchor file was deleted is flagged in recall',
    async run(ctx) {
      write(ctx, 'scripts/rotate-keys.sh', '#!/bin/sh\nvault write -f transit/keys/app/rotate\n');
      const key = await ctx.withSession((s) =>
        s.save({
          type: 'runbook',
          title: 'Rotate the application encryption key',
          description: 'Run scripts/rotate-keys.sh, then restart the API pods so they pick up the new key version',
          anchors: ['scripts/rotate-keys.sh'],
        }),
      );
      rmSync(join(ctx.workspace, 'scripts/rotate-keys.sh'));
      await ctx.withSession(async (s) => {
        const out = await ctx.probe(s, 'rotate the encryption key', { relevant: [key] });
        const flags = flagsOf(out.results, key) ?? [];
        ctx.expect(
          flags.some((f) => DRIFT_FLAG.test(f)),
          `drift not implemented: ${key} is not flagged after its anchor ` +
            `scripts/rotate-keys.sh was deleted (flags: ` +
            `${flags.join(', ') || 'none'})`,
        );
      });
    },
  },
];

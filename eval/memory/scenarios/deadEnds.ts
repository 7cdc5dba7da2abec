// Dead ends: an approach recorded as failed comes back first, marked, when someone is about to
// repeat it, and a save that resembles it carries a warning.

import type { Scenario } from '../harness';

export const deadEnds: Scenario[] = [
  {
    id: 'dead-end-first',
    theme: 'dead ends',
    title:
      'a query that repeats a recorded dead end gets it first, flagged ' +
      'dead_end, with a warning; an unrelated query does not',
    async run(ctx) {
      const keys = await ctx.withSession(
        async (s) => ({
          dead: await s.save({
            type: 'dead_end',
            title: 'Upgrading node-sqlite3-wasm to 0.9 breaks full-text search',
            description:
              'Version 0.9 ships SQLite without FTS5; every recall failed with "no such module: fts5". Stay on 0.8.60.',
          }),
          pin: await s.save({
            type: 'decision',
            title: 'Pin node-sqlite3-wasm at 0.8.60',
            description: 'The wasm SQLite build is pinned and patched on install by scripts/patchSqliteWasm.mjs',
          }),
          fts: await s.save({
            type: 'decision',
            title: 'Full-text search uses SQLite FTS5',
            description: 'memory_fts and doc_fts use the porter tokenizer so search matches word forms',
          }),
          deps: await s.save({
            type: 'runbook',
            title: 'Upgrade npm dependencies',
            description: 'Run npm outdated, upgrade one package per PR, run the full test suite before merging',
          }),
        }),
        'claude-code',
      );
      await ctx.withSession(async (s) => {
        const out = await ctx.probe(s, 'upgrade node-sqlite3-wasm to the latest version', { first: keys.dead });
        ctx.expect(
          out.results[0]?.flags.includes('dead_end'),
          `the first result is not flagged dead_end (flags: ${out.results[0]?.flags.join(', ') || 'none'})`,
        );
        ctx.expect(
          out.text.startsWith('Warning:') && out.text.includes(keys.dead),
          'the recall text does not open with a dead-end warning',
        );
        const other = await ctx.probe(s, 'porter tokenizer word forms', { relevant: [keys.fts] });
        const flagged = other.results.filter((r) => r.flags.includes('dead_end')).map((r) => r.key);
        ctx.expect(flagged.length === 0, `an unrelated query flags ${flagged.join(', ')} as a dead end`);
      }, 'copilot');
    },
  },
  {
    id: 'dead-end-remember-warning',
    theme: 'dead ends',
    title: 'saving a decision that resembles a dead end returns the dead end as a warning; an unrelated save does not',
    async run(ctx) {
      const dead = await ctx.withSession((s) =>
        s.save({
          type: 'dead_end',
          title: 'Caching user sessions in Redis',
          description:
            'Sessions cached in Redis outlived password resets, so revoked ' +
            'logins kept working; reverted after the incident',
        }),
      );
      await ctx.withSession(async (s) => {
        const similar = await s.remember({
          type: 'decision',
          title: 'Cache user sessions in Redis',
          description: 'Keep sessions in Redis to take load off the primary database',
        });
        ctx.expect(
          (similar.warnings?.dead_ends ?? []).some((d) => d.key === dead),
          `the resembling save carries no warning about ${dead}`,
        );
        ctx.expect(
          /Warning: this resembles the recorded dead end/.test(similar.text),
          "the save's text does not warn about the dead end",
        );
        const unrelated = await s.remember({
          type: 'convention',
          title: 'Format code with Prettier',
          description: 'Prettier runs on commit through lint-staged; no style debates in review',
        });
        ctx.expect(
          (unrelated.warnings?.dead_ends ?? []).length === 0,
          `an unrelated save warns about ${(unrelated.warnings?.dead_ends ?? []).map((d) => d.key).join(', ')}`,
        );
      });
      await ctx.withSession(async (s) => {
        const out = await ctx.probe(s, 'cache sessions in Redis', { first: dead });
        ctx.expect(out.results[0]?.flags.includes('dead_end'), 'the dead end is not flagged dead_end in recall');
      });
    },
  },
  {
    id: 'dead-end-retracted-stops-warning',
    theme: 'dead ends',
    title: 'once a dead end is retracted (it was wrong), it no longer warns or surfaces',
    async run(ctx) {
      const dead = await ctx.withSession((s) =>
        s.save({
          type: 'dead_end',
          title: 'HTTP/2 between the load balancer and the API',
          description: 'Enabling HTTP/2 to the API pods dropped long-polling requests; turned off again',
        }),
      );
      await ctx.withSession(async (s) => {
        await s.ok('set_status', {
          key: dead,
          status: 'retracted',
          reason: 'the drops were the old ingress controller, not HTTP/2',
        });
      });
      await ctx.withSession(async (s) => {
        const saved = await s.remember({
          type: 'decision',
          title: 'Enable HTTP/2 between the load balancer and the API',
          description: 'The new ingress controller handles long-polling over HTTP/2',
        });
        ctx.expect(
          (saved.warnings?.dead_ends ?? []).length === 0,
          `a retracted dead end still warns: ${(saved.warnings?.dead_ends ?? []).map((d) => d.key).join(', ')}`,
        );
        const out = await ctx.probe(s, 'HTTP/2 between the load balancer and the API', {
          relevant: [saved.key],
          irrelevant: [dead],
        });
        ctx.expect(!out.text.startsWith('Warning:'), 'recall still opens with a dead-end warning');
      });
    },
  },
];

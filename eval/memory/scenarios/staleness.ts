// Staleness: records whose validity ended drop out of recall, records past their review date are
// flagged, records not valid yet stay out until their time. The server's clock cannot be moved,
// so the dates are set in the past (or future) through the tools' own arguments.

import type { Scenario } from '../harness';

const DAY = 86_400_000;
const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);

export const staleness: Scenario[] = [
  {
    id: 'staleness-expired-drops-out',
    theme: 'staleness',
    title: 'a fact whose valid_until passed is not recalled now, but is as of a day inside its validity',
    async run(ctx) {
      const keys = await ctx.withSession(async (s) => ({
        old: await s.save({
          type: 'fact',
          title: 'Staging database runs on pg-staging-01',
          description: 'The staging Postgres is the VM pg-staging-01.internal',
          valid_from: '2024-01-01',
          valid_until: '2024-12-31',
        }),
        current: await s.save({
          type: 'fact',
          title: 'Staging database runs on the managed Aurora cluster',
          description: 'The staging Postgres is Aurora cluster staging-pg in eu-west-1',
          valid_from: '2025-01-01',
        }),
      }));
      await ctx.withSession(async (s) => {
        await ctx.probe(s, 'which host is the staging database on', {
          relevant: [keys.current],
          irrelevant: [keys.old],
        });
        const then = await ctx.probe(s, 'which host is the staging database on', {
          label: 'as of 2024-06-01',
          as_of: '2024-06-01',
          relevant: [keys.old],
          irrelevant: [keys.current],
        });
        const old = then.results.find((r) => r.key === keys.old);
        ctx.expect(
          !old || !old.flags.includes('expired'),
          `as of 2024-06-01 ${keys.old} is flagged expired although it was valid then`,
        );
        const got = await s.ok<{ flags: string[] }>('get', { key: keys.old });
        ctx.expect(
          got.flags.includes('expired'),
          `get ${keys.old} does not flag it expired (flags: ${got.flags.join(', ') || 'none'})`,
        );
      });
    },
  },
  {
    id: 'staleness-review-after-flagged',
    theme: 'staleness',
    title: 'a runbook past its review_after date is still recalled, flagged "stale"; a fresh one is not flagged',
    async run(ctx) {
      const keys = await ctx.withSession(async (s) => ({
        stale: await s.save({
          type: 'runbook',
          title: 'Restore the database from the nightly snapshot',
          description: 'Pick the snapshot in the RDS console, restore to a new instance, swap the DNS record',
          valid_from: '2023-01-10',
          review_after: '2024-03-01',
        }),
        fresh: await s.save({
          type: 'runbook',
          title: 'Restore one table from the point-in-time backup',
          description: 'Use pg_restore with --table from the PITR copy, then replay the audit rows',
          review_after: isoDay(365),
        }),
      }));
      await ctx.withSession(async (s) => {
        const out = await ctx.probe(s, 'restore the database from a backup', { relevant: [keys.stale, keys.fresh] });
        const stale = out.results.find((r) => r.key === keys.stale);
        const fresh = out.results.find((r) => r.key === keys.fresh);
        ctx.expect(
          stale?.flags.includes('stale'),
          `${keys.stale} (review_after 2024-03-01) is not flagged stale (flags: ${stale?.flags.join(', ') || 'none'})`,
        );
        ctx.expect(fresh && !fresh.flags.includes('stale'), `${keys.fresh} (review_after next year) is flagged stale`);
        const line = out.text.split('\n').find((l) => l.includes(keys.stale)) ?? '';
        ctx.expect(/stale/.test(line), 'the text handed to the agent does not show the stale flag');
      });
    },
  },
  {
    id: 'staleness-scheduled-change',
    theme: 'staleness',
    title: 'a change that takes effect next month (same fact_key) leaves the current fact recalled until then',
    async run(ctx) {
      const effective = isoDay(30);
      const current = await ctx.withSession((s) =>
        s.save({
          type: 'decision',
          title: 'Node 20 is the minimum runtime',
          description: 'CI and the Docker images run Node 20; engines.node is >=20',
          fact_key: 'runtime.node.minimum',
          valid_from: '2024-05-01',
        }),
      );
      const next = await ctx.withSession((s) =>
        s.save({
          type: 'decision',
          title: 'Node 22 becomes the minimum runtime',
          description: 'From next month CI and the Docker images move to Node 22; engines.node becomes >=22',
          fact_key: 'runtime.node.minimum',
          valid_from: effective,
        }),
      );
      await ctx.withSession(async (s) => {
        await ctx.probe(s, 'minimum Node runtime version', { label: 'today', relevant: [current], irrelevant: [next] });
        await ctx.probe(s, 'minimum Node runtime version', {
          label: 'after the change',
          as_of: isoDay(60),
          relevant: [next],
          irrelevant: [current],
        });
      });
    },
  },
];

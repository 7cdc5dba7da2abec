// Concurrency: two agents on one workspace at once. The first `lore mcp` owns the store; the
// second finds it and relays to it. Writes race through expected_version: exactly one racer wins,
// the loser gets the winner back, and nothing is lost.

import { ownerPublished, type Scenario, type ScenarioContext, type Session } from '../harness';

interface Pair {
  a: Session;
  b: Session;
  ownerPid: number;
}

/** Agent A starts and becomes the owner; once it has published its port, agent B starts and relays. */
async function twoAgents(ctx: ScenarioContext): Promise<Pair> {
  const a = await ctx.session('agent-a');
  const owner = await ownerPublished(await a.storeFile());
  ctx.expect(owner.pid === a.pid, `the owner is pid ${owner.pid}, not agent A's server (${a.pid})`);
  const b = await ctx.session('agent-b');
  return { a, b, ownerPid: owner.pid };
}

async function closeBoth({ a, b }: Pair): Promise<void> {
  await b.close(); // the relay first, then the owner it relays to
  await a.close();
}

export const concurrency: Scenario[] = [
  {
    id: 'concurrency-expected-version-race',
    theme: 'concurrency',
    title:
      'two agents update the same decision from version 1 at once: one ' +
      'wins, the loser merges and saves; both edits survive',
    async run(ctx) {
      const pair = await twoAgents(ctx);
      const { a, b } = pair;
      const base = { type: 'decision', key: 'decision/api-rate-limits', title: 'API rate limits' };
      await a.save({
        ...base,
        description: 'Public API: 100 requests per minute per token',
        body: '- public: 100/min',
      });
      const [ra, rb] = await Promise.all([
        a.remember({
          ...base,
          description: 'Public API: 100 requests per minute per token; partners 1000',
          body: '- public: 100/min\n- partners: 1000/min',
          expected_version: 1,
        }),
        b.remember({
          ...base,
          description: 'Public API: 100 requests per minute per token; burst 20',
          body: '- public: 100/min\n- burst: 20',
          expected_version: 1,
        }),
      ]);
      const outcomes = [ra.saved, rb.saved];
      ctx.expect(
        outcomes.filter(Boolean).length === 1,
        `${outcomes.filter(Boolean).length} of the two racing saves won (expected exactly one)`,
      );
      const [winner, loser, loserAgent] = ra.saved ? [ra, rb, b] : [rb, ra, a];
      ctx.expect(
        loser.conflict?.current?.version === 2 &&
          loser.conflict.current.body ===
            (winner === ra ? '- public: 100/min\n- partners: 1000/min' : '- public: 100/min\n- burst: 20'),
        'the loser did not get the winning record back in conflict.current',
      );
      if (!loser.saved && loser.conflict?.current) {
        const merged = await loserAgent.remember({
          ...base,
          description: 'Public API: 100 requests per minute per token; partners 1000; burst 20',
          body: '- public: 100/min\n- partners: 1000/min\n- burst: 20',
          expected_version: loser.conflict.current.version,
        });
        ctx.expect(
          merged.saved && merged.version === 3,
          `the merged retry was not saved as version 3: ${merged.text.split('\n')[0]}`,
        );
      }
      const owner = await ownerPublished(await b.storeFile());
      ctx.expect(owner.pid === pair.ownerPid, 'the relaying agent took over ownership');
      await closeBoth(pair);
      await ctx.withSession(async (s) => {
        const got = await s.ok<{ memory: { version: number; body: string } }>('get', { key: base.key });
        ctx.expect(
          got.memory.version === 3 && /partners/.test(got.memory.body) && /burst/.test(got.memory.body),
          `the final record (v${got.memory.version}) lost an edit: ${JSON.stringify(got.memory.body)}`,
        );
        const history = await s.ok<{ versions: unknown[] }>('history', { key: base.key });
        ctx.expect(history.versions.length === 3, `history keeps ${history.versions.length} versions, expected 3`);
        await ctx.probe(s, 'partner rate limit burst', { relevant: [base.key] });
      }, 'reviewer');
    },
  },
  {
    id: 'concurrency-parallel-writes',
    theme: 'concurrency',
    title: 'two agents save fifteen records each, interleaved: all thirty are there, for both agents and after restart',
    async run(ctx) {
      const pair = await twoAgents(ctx);
      const { a, b } = pair;
      const services = [
        'billing',
        'search',
        'checkout',
        'catalog',
        'accounts',
        'shipping',
        'invoices',
        'reports',
        'gateway',
        'notifier',
        'scheduler',
        'exporter',
        'importer',
        'ledger',
        'profiles',
      ];
      const writes = services.flatMap((service) => [
        a.remember({
          type: 'fact',
          title: `Owner of the ${service} service`,
          description: `The ${service} service is owned by team ${service}-core (from agent A)`,
        }),
        b.remember({
          type: 'runbook',
          title: `Restart the ${service} workers`,
          description:
            `kubectl rollout restart deploy/${service}-worker, then watch the ` +
            `${service} queue drain (from agent B)`,
        }),
      ]);
      const results = await Promise.all(writes);
      const saved = results.filter((r) => r.saved).length;
      ctx.expect(saved === 30, `${saved} of 30 concurrent saves were saved`);
      const fromA = results.filter((_, i) => i % 2 === 0).map((r) => r.key);
      const fromB = results.filter((_, i) => i % 2 === 1).map((r) => r.key);
      // Each agent sees what the other just wrote (visibility, not ranking: the precision and
      // vocabulary scenarios judge ranking).
      await ctx.probe(a, 'restart the ledger workers', {
        label: "A finds B's runbook",
        relevant: [fromB[services.indexOf('ledger')]],
      });
      await ctx.probe(b, 'who owns the ledger service', {
        label: "B finds A's fact",
        relevant: [fromA[services.indexOf('ledger')]],
      });
      await closeBoth(pair);
      await ctx.withSession(async (s) => {
        const listed = await s.ok<{ total: number }>('list', { limit: 200 });
        ctx.expect(listed.total === 30, `after restart the store lists ${listed.total} records, expected 30`);
        const stats = await s.ok<{ stats: { memories: number } }>('context');
        ctx.expect(stats.stats.memories === 30, `context counts ${stats.stats.memories} memories`);
      });
    },
  },
  {
    id: 'concurrency-create-only-race',
    theme: 'concurrency',
    title: 'two agents create the same new key with expected_version 0 at once: exactly one creates it',
    async run(ctx) {
      const pair = await twoAgents(ctx);
      const { a, b } = pair;
      const base = {
        type: 'runbook',
        key: 'runbook/failover-the-primary-database',
        title: 'Fail over the primary database',
      };
      const [ra, rb] = await Promise.all([
        a.remember({
          ...base,
          description: 'Promote the replica in the RDS console (written by A)',
          expected_version: 0,
        }),
        b.remember({
          ...base,
          description: 'Run make db-failover from the ops box (written by B)',
          expected_version: 0,
        }),
      ]);
      ctx.expect(
        [ra.saved, rb.saved].filter(Boolean).length === 1,
        `${[ra.saved, rb.saved].filter(Boolean).length} agents created the record (expected exactly one)`,
      );
      const loser = ra.saved ? rb : ra;
      ctx.expect(
        loser.conflict?.current_version === 1,
        `the loser was told the current version is ${loser.conflict?.current_version}`,
      );
      await closeBoth(pair);
      await ctx.withSession(async (s) => {
        const got = await s.ok<{ memory: { version: number; description: string } }>('get', { key: base.key });
        const winner = ra.saved ? 'A' : 'B';
        ctx.expect(
          got.memory.version === 1 && got.memory.description.includes(`written by ${winner}`),
          `the stored record is v${got.memory.version} "${got.memory.description}", not the winner's`,
        );
        await ctx.probe(s, 'fail over the primary database', { first: base.key });
      });
    },
  },
];

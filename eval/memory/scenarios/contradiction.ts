// Contradiction: a correction takes over from what it corrects, and history still answers what
// was true before the correction.

import type { Scenario } from '../harness';

interface HistoryOut {
  versions: Array<{ version: number; description: string }>;
  events: Array<{ event: string; related_key: string | null }>;
}

export const contradiction: Scenario[] = [
  {
    id: 'contradiction-fact-key-dated',
    theme: 'contradiction',
    title: 'a correction with the same fact_key supersedes the old fact; as_of before it returns the old one',
    async run(ctx) {
      const old = await ctx.withSession((s) =>
        s.save({
          type: 'fact',
          title: 'CI runs on CircleCI',
          description: 'Pipelines are defined in .circleci/config.yml',
          fact_key: 'ci.provider',
          valid_from: '2023-05-01',
        }),
      );
      const fresh = await ctx.withSession(async (s) => {
        const saved = await s.remember({
          type: 'fact',
          title: 'CI runs on GitHub Actions',
          description: 'Pipelines moved to .github/workflows in March 2025',
          fact_key: 'ci.provider',
          valid_from: '2025-03-01',
        });
        ctx.expect(
          saved.saved && (saved.superseded ?? []).includes(old),
          `the correction did not report superseding ${old} (superseded: ` +
            `${(saved.superseded ?? []).join(', ') || 'none'})`,
        );
        return saved.key;
      });
      await ctx.withSession(async (s) => {
        await ctx.probe(s, 'which CI provider runs our pipelines', { relevant: [fresh], irrelevant: [old] });
        const then = await ctx.probe(s, 'which CI provider runs our pipelines', {
          label: 'as of 2024-06-01',
          as_of: '2024-06-01',
          relevant: [old],
          irrelevant: [fresh],
        });
        const hit = then.results.find((r) => r.key === old);
        ctx.expect(
          !hit || hit.superseded_by === fresh,
          `as of 2024-06-01 ${old} does not say it was superseded by ${fresh}`,
        );
        const history = await s.ok<HistoryOut>('history', { key: old });
        ctx.expect(
          history.events.some((e) => e.event === 'superseded' && e.related_key === fresh),
          `history of ${old} has no "superseded by ${fresh}" event`,
        );
      });
    },
  },
  {
    id: 'contradiction-correction-next-session',
    theme: 'contradiction',
    title: "a correction saved in a later session wins now; as_of the old fact's own start still returns it",
    async run(ctx) {
      const old = await ctx.withSession((s) =>
        s.save({
          type: 'fact',
          title: 'Default API timeout is 30 seconds',
          description: 'HTTP handlers abort after 30 s; the gateway allows 35 s',
          fact_key: 'api.timeout.default',
        }),
      );
      const { fresh, from } = await ctx.withSession(async (s) => {
        const before = await s.ok<{ memory: { valid_from: string } }>('get', { key: old });
        const key = await s.save({
          type: 'fact',
          title: 'Default API timeout is 10 seconds',
          description: 'HTTP handlers abort after 10 s since the gateway incident; long exports moved to jobs',
          fact_key: 'api.timeout.default',
        });
        return { fresh: key, from: before.memory.valid_from };
      });
      await ctx.withSession(async (s) => {
        await ctx.probe(s, 'what is the default API timeout', { relevant: [fresh], irrelevant: [old] });
        await ctx.probe(s, 'what is the default API timeout', {
          label: 'as of the first fact',
          as_of: from,
          relevant: [old],
          irrelevant: [fresh],
        });
      });
    },
  },
  {
    id: 'contradiction-supersede-tool',
    theme: 'contradiction',
    title: 'supersede old → new with a valid_from: recall returns the new decision, as_of before it the old one',
    async run(ctx) {
      const old = await ctx.withSession((s) =>
        s.save({
          type: 'decision',
          title: 'Deploy with Heroku pipelines',
          description: 'Review apps and promotion to production through Heroku pipelines',
          valid_from: '2022-01-01',
        }),
      );
      const fresh = await ctx.withSession(async (s) => {
        const key = await s.save({
          type: 'decision',
          title: 'Deploy to Kubernetes with Argo CD',
          description: 'GitOps: Argo CD syncs the Helm charts in deploy/ to the production cluster',
          valid_from: '2024-09-01',
        });
        await s.ok('supersede', { old_key: old, new_key: key, valid_from: '2024-09-01' });
        return key;
      });
      await ctx.withSession(async (s) => {
        await ctx.probe(s, 'how do we deploy to production', { relevant: [fresh], irrelevant: [old] });
        await ctx.probe(s, 'how do we deploy to production', {
          label: 'as of 2023-06-01',
          as_of: '2023-06-01',
          relevant: [old],
          irrelevant: [fresh],
        });
        const history = await s.ok<HistoryOut>('history', { key: old });
        ctx.expect(
          history.events.some((e) => e.event === 'superseded' && e.related_key === fresh),
          `history of ${old} has no "superseded by ${fresh}" event`,
        );
      });
    },
  },
  {
    id: 'contradiction-same-key-update',
    theme: 'contradiction',
    title: 'saving a new version of a key: recall shows the new description; as_of the first version shows the old',
    async run(ctx) {
      const key = 'convention/branch-naming';
      const v1 = await ctx.withSession(async (s) => {
        await s.save({
          type: 'convention',
          key,
          title: 'Branch naming',
          description: 'Branches are named feature/TICKET-123-short-slug',
        });
        return (await s.ok<{ memory: { valid_from: string } }>('get', { key })).memory.valid_from;
      });
      await ctx.withSession(async (s) => {
        const saved = await s.remember({
          type: 'convention',
          key,
          title: 'Branch naming',
          description: 'Branches are named TICKET-123-short-slug; the feature/ prefix is gone',
          expected_version: 1,
        });
        ctx.expect(
          saved.saved && saved.version === 2,
          `the update was not saved as version 2: ${saved.text.split('\n')[0]}`,
        );
      });
      await ctx.withSession(async (s) => {
        const now = await ctx.probe(s, 'how do I name a branch', { relevant: [key] });
        const hit = now.results.find((r) => r.key === key);
        ctx.expect(
          hit && /prefix is gone/.test(hit.description),
          `recall shows the old description: "${hit?.description ?? '-'}"`,
        );
        const then = await ctx.probe(s, 'how do I name a branch', {
          label: 'as of version 1',
          as_of: v1,
          relevant: [key],
        });
        const old = then.results.find((r) => r.key === key);
        ctx.expect(
          old && /feature\/TICKET/.test(old.description),
          `as of version 1 recall shows "${old?.description ?? '-'}"`,
        );
      });
    },
  },
  {
    id: 'contradiction-no-fact-key-warned',
    theme: 'contradiction',
    title:
      'a save that restates a record with another day comes back with ' +
      'it as a possible contradiction; related saves do not',
    async run(ctx) {
      await ctx.withSession(async (s) => {
        const saves: Array<[Record<string, unknown>, string | null]> = [
          [
            {
              type: 'fact',
              title: 'Deploys go out on Tuesdays',
              description: 'Production deploys happen on Tuesday afternoons',
            },
            null,
          ],
          [
            { type: 'fact', title: 'The retro is on Fridays', description: 'The team retro runs every second Friday' },
            null,
          ],
          [
            { type: 'fact', title: 'Deploy freeze on Fridays', description: 'Nothing ships to production on a Friday' },
            null,
          ],
          [{ type: 'fact', title: 'Database backups run nightly', description: 'pg_dump runs at 02:00 UTC' }, null],
          [
            {
              type: 'fact',
              title: 'Log rotation runs weekly',
              description: 'logrotate compresses the logs on Sundays',
            },
            null,
          ],
          [
            {
              type: 'convention',
              title: 'Deploys on Mondays need two reviewers',
              description: 'Monday releases are reviewed twice',
            },
            null,
          ],
          [
            {
              type: 'fact',
              title: 'Retro notes go to Confluence',
              description: 'The facilitator posts the notes after each retro',
            },
            null,
          ],
          [
            { type: 'fact', title: 'We deploy on Thursdays now', description: 'Releases moved to Thursday mornings' },
            'fact/deploys-go-out-on-tuesdays',
          ],
          [
            {
              type: 'fact',
              title: 'The retro moved to Wednesdays',
              description: 'Retro is on Wednesday afternoons from now on',
            },
            'fact/the-retro-is-on-fridays',
          ],
        ];
        for (const [args, expected] of saves) {
          const out = await s.remember(args);
          const warned = (out.warnings?.contradictions ?? []).map((c) => c.key);
          ctx.expect(
            JSON.stringify(warned) === JSON.stringify(expected ? [expected] : []),
            `"${String(args.title)}" warned about [${warned.join(', ')}], expected [${expected ?? ''}]`,
          );
          if (expected)
            ctx.expect(/Supersede it\?/.test(out.text), `"${String(args.title)}": the text does not ask to supersede`);
        }
      });
    },
  },
];

// Precision: what recall returns is about the question; unrelated memories stay out.

import type { Scenario } from '../harness';

export const precision: Scenario[] = [
  {
    id: 'precision-disjoint-topics',
    theme: 'precision',
    title: 'six memories on unrelated topics; each question returns its own and none of the others',
    async run(ctx) {
      const keys = await ctx.withSession(
        async (s) => ({
          queue: await s.save({
            type: 'decision',
            title: 'Use Postgres for the job queue',
            description: 'Background jobs run on Postgres with SKIP LOCKED; no separate broker',
            body: 'Fewer systems to operate; Redis was only there for Sidekiq.',
          }),
          css: await s.save({
            type: 'convention',
            title: 'BEM class names in the web client',
            description: 'Components are styled with BEM blocks (card__title--active); no CSS-in-JS',
          }),
          cache: await s.save({
            type: 'runbook',
            title: 'Clear the CI dependency cache',
            description: 'Bump CACHE_VERSION in .github/workflows/ci.yml when lockfile installs go stale',
          }),
          logs: await s.save({
            type: 'decision',
            title: 'Structured JSON logs with pino',
            description: 'Services log one JSON object per line through pino; no printf-style strings',
          }),
          oncall: await s.save({
            type: 'fact',
            title: 'On-call rotation changes on Mondays',
            description: 'The pager hands over every Monday at 10:00 UTC in Opsgenie',
          }),
          pins: await s.save({
            type: 'convention',
            title: 'Pin exact dependency versions',
            description: 'package.json uses exact versions; Renovate opens grouped update PRs weekly',
          }),
        }),
        'claude-code',
      );
      const all = Object.values(keys);
      const only = (key: string) => ({ relevant: [key], irrelevant: all.filter((k) => k !== key) });
      await ctx.withSession(async (s) => {
        await ctx.probe(s, 'where do background jobs run', only(keys.queue));
        await ctx.probe(s, 'how should I name CSS classes in a component', only(keys.css));
        await ctx.probe(s, 'what logging library do the services use', only(keys.logs));
        await ctx.probe(s, 'when does the pager rotate', only(keys.oncall));
        await ctx.probe(s, 'CI installs are using a stale cache', only(keys.cache));
      }, 'copilot');
    },
  },
  {
    id: 'precision-absent-topic',
    theme: 'precision',
    title: 'a question about something never saved returns nothing, not the nearest stranger',
    async run(ctx) {
      const keys = await ctx.withSession(async (s) => [
        await s.save({
          type: 'decision',
          title: 'Use Postgres for the job queue',
          description: 'Background jobs run on Postgres with SKIP LOCKED; no separate broker',
        }),
        await s.save({
          type: 'runbook',
          title: 'Rotate the Stripe webhook signing secret',
          description:
            'Roll the secret in the Stripe dashboard, update the vault entry payments/stripe, redeploy payments',
        }),
        await s.save({
          type: 'convention',
          title: 'Squash-merge pull requests',
          description: 'main keeps one commit per PR; the PR title becomes the commit subject',
        }),
        await s.save({
          type: 'fact',
          title: 'Staging resets every night',
          description: 'The staging database is restored from an anonymised production snapshot at 02:00 UTC',
        }),
      ]);
      await ctx.withSession(async (s) => {
        const out = await ctx.probe(s, 'kubernetes ingress TLS certificate renewal', { irrelevant: keys });
        ctx.expect(
          out.keys.length === 0,
          `an unanswerable question returned ${out.keys.length} result(s): ${out.keys.join(', ')}`,
        );
        ctx.expect(/Nothing in Lore matches/.test(out.text), 'the empty answer does not say that nothing matched');
      });
    },
  },
  {
    id: 'precision-shared-word',
    theme: 'precision',
    title: 'a memory that only shares an incidental word ranks below the one that answers',
    async run(ctx) {
      const keys = await ctx.withSession(async (s) => ({
        queue: await s.save({
          type: 'decision',
          title: 'Use Postgres for the job queue',
          description: 'Background jobs are queued in Postgres and claimed with SKIP LOCKED',
        }),
        flaky: await s.save({
          type: 'runbook',
          title: 'Re-run flaky CI jobs',
          description:
            'Retry a failed GitHub Actions job with gh run rerun --failed; ' +
            'known flaky e2e jobs are tracked in #ci-flakes',
        }),
        fonts: await s.save({
          type: 'convention',
          title: 'Self-host web fonts',
          description: 'Fonts are served from /static/fonts with a year-long cache header; no Google Fonts',
        }),
      }));
      await ctx.withSession(async (s) => {
        await ctx.probe(s, 'how are background jobs queued', {
          first: keys.queue,
          below: [keys.flaky],
          irrelevant: [keys.fonts],
        });
        await ctx.probe(s, 'a CI job failed, how do I re-run it', {
          first: keys.flaky,
          below: [keys.queue],
          irrelevant: [keys.fonts],
        });
      });
    },
  },
  {
    id: 'precision-common-words-kept',
    theme: 'precision',
    title:
      "in a young store, the runbook matching the question's two main " +
      'words is returned, first, though half the store shares those ' +
      'words',
    async run(ctx) {
      const keys = await ctx.withSession(async (s) => ({
        rotate: await s.save({
          type: 'runbook',
          title: 'Rotate the Postgres credentials',
          description:
            'Create a new role password in Vault, update the app secret, roll ' +
            'the API pods, then revoke the old password',
        }),
        tls: await s.save({
          type: 'runbook',
          title: 'Rotate the TLS certificates',
          description: 'cert-manager renews them; force a renewal with cmctl renew',
        }),
        backups: await s.save({
          type: 'decision',
          title: 'Database backups are encrypted with KMS',
          description: 'The nightly pg_dump goes to S3 encrypted with the backups KMS key',
        }),
        local: await s.save({
          type: 'convention',
          title: 'Credentials never go in .env files',
          description: 'Local development reads credentials from the 1Password CLI',
        }),
      }));
      await ctx.withSession(async (s) => {
        await ctx.probe(s, 'how do I rotate the database credentials', {
          first: keys.rotate,
          below: [keys.tls, keys.backups, keys.local],
        });
      });
    },
  },
  {
    id: 'precision-crowded-store',
    theme: 'precision',
    title: 'in a store of twenty records across topics, each question ranks its answer first',
    async run(ctx) {
      const records: Array<[string, string, string, string]> = [
        [
          'queue',
          'decision',
          'Use Postgres for the job queue',
          'Background jobs run on Postgres with SKIP LOCKED; no separate broker',
        ],
        [
          'auth',
          'decision',
          'Sessions are server-side cookies',
          'The web app keeps sessions in Postgres behind an HttpOnly cookie; no JWTs in localStorage',
        ],
        [
          'css',
          'convention',
          'BEM class names in the web client',
          'Components are styled with BEM blocks; no CSS-in-JS',
        ],
        [
          'deploy',
          'runbook',
          'Deploy the API to production',
          'Merge to main, wait for the image build, then promote the release in Argo CD',
        ],
        [
          'rollback',
          'runbook',
          'Roll back a bad release',
          'In Argo CD select the previous revision of the api application and sync it; then open an incident',
        ],
        [
          'migrations',
          'convention',
          'Migrations are forward-only',
          'Schema migrations never drop a column in the same release that stops using it',
        ],
        [
          'oncall',
          'fact',
          'On-call rotation changes on Mondays',
          'The pager hands over every Monday at 10:00 UTC in Opsgenie',
        ],
        [
          'pins',
          'convention',
          'Pin exact dependency versions',
          'package.json uses exact versions; Renovate opens grouped update PRs weekly',
        ],
        ['logs', 'decision', 'Structured JSON logs with pino', 'Services log one JSON object per line through pino'],
        [
          'metrics',
          'decision',
          'Prometheus for metrics',
          'Every service exposes /metrics; Grafana dashboards live in ops/dashboards',
        ],
        [
          'i18n',
          'convention',
          'Translations live in locales/*.json',
          'Keys are dotted paths; English is the source and others are filled by the translation vendor',
        ],
        [
          'flags',
          'decision',
          'Feature flags in config/flags.yaml',
          'Flags are read at start-up; changing one needs a redeploy',
        ],
        [
          'email',
          'fact',
          'Transactional email goes through Postmark',
          'Templates are edited in the Postmark dashboard, not in the repo',
        ],
        [
          'search',
          'decision',
          'Product search uses OpenSearch',
          'The catalog is indexed nightly; typo tolerance is configured in search/analyzers.json',
        ],
        [
          'images',
          'runbook',
          'Purge the CDN cache for images',
          'Run make purge-cdn PATH=/img/... ; full purges need the platform team',
        ],
        [
          'tz',
          'convention',
          'Store timestamps in UTC',
          'Columns are timestamptz; convert to the user zone only in the UI',
        ],
        [
          'pdf',
          'dead_end',
          'Rendering invoices with wkhtmltopdf',
          'Fonts and page breaks were wrong on every second invoice; moved to headless Chrome',
        ],
        [
          'review',
          'convention',
          'Two approvals for infrastructure changes',
          'Anything under infra/ needs two reviewers from the platform team',
        ],
        [
          'secrets',
          'fact',
          'Secrets live in Vault',
          'Applications read secrets from Vault at start-up through the agent sidecar',
        ],
        ['pref', 'preference', 'Prefers concise commit messages', 'The user likes commit subjects under 50 characters'],
      ];
      const keys: Record<string, string> = {};
      await ctx.withSession(async (s) => {
        for (const [alias, type, title, description] of records)
          keys[alias] = await s.save({ type, title, description });
      });
      const others = (alias: string) =>
        Object.entries(keys)
          .filter(([a]) => a !== alias)
          .map(([, k]) => k);
      const asks: Array<[string, string]> = [
        ['rollback', 'roll back the last release'],
        ['tz', 'which time zone do we store timestamps in'],
        ['metrics', 'where are the Grafana dashboards for service metrics'],
        ['email', 'how are transactional emails sent'],
        ['migrations', 'can a migration drop a column'],
        ['secrets', 'how does the app read secrets'],
        ['search', 'product search typo tolerance'],
      ];
      await ctx.withSession(async (s) => {
        for (const [alias, query] of asks)
          await ctx.probe(s, query, { first: keys[alias], below: others(alias), limit: 5 });
      });
    },
  },
];

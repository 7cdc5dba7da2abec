// Memories and documents on one scale, and the kind a question names: a memory whose title
// answers the question is not drowned by a large index, and "which runbooks…" prefers runbooks
// without filtering out the rest.

import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kindIntent } from '../../../../src/engine/search/intent';
import { WorkspaceFileSource } from '../../../../src/host/fileSource';
import { memory, openTestStore, person, type TestStore } from '../../../support/store';

async function indexFiles(s: TestStore, files: Record<string, string>): Promise<void> {
  const root = join(s.dir, 'repo');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const run = s.engine.index(new WorkspaceFileSource(root));
  while (!(await run.next()).done);
}

const keyOf = (h: { record: string; key: string; path?: string }) => (h.record === 'doc' ? h.path! : h.key);

describe('recall: memories among many documents', function () {
  this.timeout(120_000);
  let s: TestStore;
  const TITLE = 'Retire the legacy billing exporter';
  before(async () => {
    s = openTestStore();
    // 2,400 chunks that talk about billing, exporters and legacy systems all the time.
    const files: Record<string, string> = {};
    for (let f = 0; f < 300; f++) {
      const sections = Array.from({ length: 8 }, (_, i) => {
        const n = f * 8 + i;
        const words = [
          n % 2
            ? 'The billing exporter pushes invoices to the ledger.'
            : 'The billing service exports usage to the warehouse.',
          n % 3 ? 'Legacy jobs still run the exporter nightly.' : 'The exporter retries failed billing batches.',
          n % 5 === 0 ? 'We plan to retire old cron hosts.' : 'Dashboards show exporter lag per region.',
        ];
        return `## Billing exporter notes ${n}\n\n${words.join(' ')}\n`;
      });
      files[`docs/billing-${f}.md`] = `# Billing exporter ${f}\n\n${sections.join('\n')}`;
    }
    await indexFiles(s, files);
    assert.ok(s.engine.indexStatus().chunks >= 2400);
    s.engine.remember(
      person,
      memory({
        title: TITLE,
        description: 'The nightly billing exporter is replaced by the ledger stream; the cron host goes away',
      }),
    );
    s.engine.remember(
      person,
      memory({ title: 'Use Postgres for the job queue', description: 'Jobs run on Postgres with SKIP LOCKED' }),
    );
  });
  after(() => s.cleanup());

  it('ranks a decision asked by its exact title in the top 3', async () => {
    const keys = (await s.engine.recall({ query: TITLE, limit: 10 })).results.map(keyOf);
    assert.ok(
      keys.indexOf('decision/retire-the-legacy-billing-exporter') >= 0 &&
        keys.indexOf('decision/retire-the-legacy-billing-exporter') < 3,
      keys.join('\n'),
    );
  });

  it('ranks a decision asked by words of its description in the top 3', async () => {
    const keys = (
      await s.engine.recall({ query: 'what replaces the nightly billing exporter', limit: 10 })
    ).results.map(keyOf);
    const rank = keys.indexOf('decision/retire-the-legacy-billing-exporter');
    assert.ok(rank >= 0 && rank < 3, keys.join('\n'));
  });
});

describe('recall: a kind named in the question', () => {
  let s: TestStore;
  before(async () => {
    s = openTestStore();
    await indexFiles(s, {
      'docs/adr/0007-message-queue.md':
        '# ADR 7: RabbitMQ as the message queue\n\n## ' +
        'Status\n\nAccepted\n\n## Decision\n\nThe message queue is ' +
        'RabbitMQ. The message queue runbook lists its alerts; every ' +
        'message queue consumer acks.\n',
      'docs/runbooks/message-queue.md':
        '# Runbook: drain the broker\n\n## When\n\nConsumers lag on the ' +
        'message queue.\n\n## Steps\n\n1. Pause the producers.\n2. Drain ' +
        'the queue with rabbitmqadmin.\n',
      'docs/guides/queues.md':
        '# Working with the message queue\n\n## Runbook links\n\nThe ' +
        'message queue runbook is in docs/runbooks. Message queue naming: ' +
        'one queue per consumer.\n',
    });
    s.engine.remember(
      person,
      memory({
        title: 'Message queue consumers must be idempotent',
        description: 'Every message queue consumer tolerates redelivery',
      }),
    );
    s.engine.remember(
      person,
      memory({
        type: 'incident',
        title: 'Checkout outage after a DNS change',
        description: 'A TTL change on the internal zone broke service discovery for an hour',
      }),
    );
    s.engine.remember(
      person,
      memory({
        title: 'Resolve internal names with CoreDNS',
        description: 'Pods resolve internal DNS names through CoreDNS; no host resolvers',
      }),
    );
  });
  after(() => s.cleanup());

  it('reads kinds from plurals and synonyms, and nothing from other words', () => {
    assert.deepEqual([...kindIntent('which runbooks cover the message queue')!.kinds], ['runbook']);
    assert.deepEqual([...kindIntent('incidents caused by DNS')!.types], ['incident', 'postmortem']);
    assert.deepEqual([...kindIntent('post-mortems about the outage')!.kinds], ['postmortem']);
    assert.ok(kindIntent('the ADRs on logging')!.kinds.has('adr'));
    assert.ok(kindIntent('Terraform for the cluster')!.kinds.has('terraform'));
    assert.ok(kindIntent('GitHub workflows that deploy')!.kinds.has('ci'));
    assert.ok(kindIntent('dead ends with the PDF renderer')!.types.has('dead_end'));
    assert.equal(kindIntent('how are background jobs queued'), null);
  });

  it('ranks the runbook first for "which runbooks cover the message queue", and only with the boost', async () => {
    const query = 'which runbooks cover the message queue';
    const boosted = (await s.engine.recall({ query })).results;
    assert.equal(keyOf(boosted[0]), 'docs/runbooks/message-queue.md', boosted.map(keyOf).join('\n'));
    assert.equal(boosted[0].score.intent, 1.5);
    // A boost, not a filter: the ADR and the decision are still listed.
    assert.ok(boosted.some((h) => keyOf(h) === 'docs/adr/0007-message-queue.md'));
    assert.ok(boosted.some((h) => h.key === 'decision/message-queue-consumers-must-be-idempotent'));
    const plain = (await s.engine.recall({ query }, { intent: false })).results;
    assert.notEqual(
      keyOf(plain[0]),
      'docs/runbooks/message-queue.md',
      'the case measures nothing if the runbook is first without the boost',
    );
  });

  it('ranks the incident memory first for "incidents caused by DNS"', async () => {
    const hits = (await s.engine.recall({ query: 'incidents caused by DNS' })).results;
    assert.equal(hits[0].key, 'incident/checkout-outage-after-a-dns-change', hits.map(keyOf).join('\n'));
    assert.ok(hits.some((h) => h.key === 'decision/resolve-internal-names-with-coredns'));
  });
});

describe('recall in a young store', () => {
  let s: TestStore;
  beforeEach(() => {
    s = openTestStore();
  });
  afterEach(() => s.cleanup());

  it("ranks the runbook holding two of the question's words above a record holding one rarer word", async () => {
    s.engine.remember(
      person,
      memory({
        type: 'runbook',
        title: 'Rotate the Postgres credentials',
        description: 'Create a new role password in Vault, update the app secret, roll the API pods',
      }),
    );
    s.engine.remember(
      person,
      memory({
        type: 'runbook',
        title: 'Rotate the TLS certificates',
        description: 'cert-manager renews them; force a renewal with cmctl renew',
      }),
    );
    s.engine.remember(
      person,
      memory({
        title: 'Database backups are encrypted with KMS',
        description: 'The nightly pg_dump goes to S3 encrypted with the backups KMS key',
      }),
    );
    s.engine.remember(
      person,
      memory({
        type: 'convention',
        title: 'Credentials never go in .env files',
        description: 'Local development reads credentials from the 1Password CLI',
      }),
    );
    const keys = (await s.engine.recall({ query: 'which credentials rotate for the database' })).results.map(
      (h) => h.key,
    );
    assert.equal(keys[0], 'runbook/rotate-the-postgres-credentials', keys.join('\n'));
  });

  it('ranks the runbook above a chat fact that repeats a how-to question', async () => {
    s.engine.remember(
      person,
      memory({
        type: 'runbook',
        title: 'Rotate the Postgres credentials',
        description:
          'Create a new role password in Vault, update the app secret, roll the API pods, then revoke the old password',
      }),
    );
    s.engine.remember(
      person,
      memory({
        type: 'fact',
        title: 'User asked how to rotate database credentials',
        description: "In yesterday's chat the user asked about rotating the database credentials before the audit",
      }),
    );
    const hits = (await s.engine.recall({ query: 'how do I rotate the database credentials' })).results;
    assert.equal(
      hits[0].key,
      'runbook/rotate-the-postgres-credentials',
      JSON.stringify(hits.map((h) => [h.key, h.score])),
    );
    assert.equal(hits[0].score.intent, 1.5);
  });
});

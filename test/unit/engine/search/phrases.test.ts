// Phrases in the question: neighbouring words ("Terraform Cloud", "node pool") score as a phrase
// when a title or heading holds them together, and a kind word inside such a name ("Terraform")
// is part of the name, not a request for Terraform files. The fixture is shaped like the
// infrastructure repository where "why did we choose Terraform Cloud" ranked the ADR
// "Replace Terraform Cloud…" 26th: Terraform and cloud words everywhere, ADR 0001 about choosing.

import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kindIntent } from '../../../../src/engine/search/intent';
import { queryPhrases } from '../../../../src/engine/text/words';
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

function infrastructureRepo(): Record<string, string> {
  const files: Record<string, string> = {
    'docs/adr/0001-record-architecture-decisions.md':
      '# 1. Record architecture decisions\n\n## Context\n\nWe need to record the decisions made on this ' +
      'project when choosing tools, and choosing how we run Terraform in the cloud.\n\n## Decision\n\n' +
      "We will use Architecture Decision Records. Choosing a format: Michael Nygard's.\n",
    'docs/adr/0007-replace-terraform-cloud.md':
      '# 7. Replace Terraform Cloud with GitHub Actions runs\n\n## Context\n\nPlans and applies ran in a ' +
      'hosted workspace per project. Costs rose and runs queued for minutes.\n\n## Decision\n\nPlans and ' +
      'applies run in the pipeline with state in S3 and locks in DynamoDB.\n',
    'docs/adr/0004-node-pools.md':
      '# 4. One node pool per workload class\n\n## Decision\n\nGeneral, memory-heavy and GPU workloads each ' +
      'get a pool of nodes with taints.\n',
  };
  for (let i = 0; i < 40; i++) {
    files[`terraform/modules/m${i}/README.md`] =
      `# Module ${i}: cloud network ${i}\n\nThis Terraform module creates the cloud resources for ` +
      `service ${i}. Terraform state lives in the cloud bucket. Run terraform plan before apply; ` +
      `the cloud provider credentials come from the pipeline.\n`;
    files[`terraform/modules/m${i}/main.tf`] =
      `# Terraform for service ${i} in the cloud\nresource "aws_s3_bucket" "b${i}" {\n  bucket = "cloud-${i}"\n}\n`;
  }
  for (let i = 0; i < 15; i++)
    files[`docs/guides/g${i}.md`] =
      `# Node upgrades and the spare pool, cluster ${i}\n\nEach node in the cluster joins a pool of machines; the ` +
      `pool size and the node image are set in Terraform. Each node runs the cloud agent.\n`;
  return files;
}

describe('recall: phrases in the question', function () {
  this.timeout(120_000);
  let s: TestStore;
  before(async () => {
    s = openTestStore();
    await indexFiles(s, infrastructureRepo());
  });
  after(() => s.cleanup());

  it('takes neighbouring words that both count as phrases, broken by stop words', () => {
    assert.deepEqual(queryPhrases('why did we choose Terraform Cloud'), [
      ['choose', 'terraform'],
      ['terraform', 'cloud'],
    ]);
    assert.deepEqual(queryPhrases('size of the node pool'), [['node', 'pool']]);
  });

  it('reads "why did we choose X" as asking for a decision, the verb out of the text', () => {
    const intent = kindIntent('why did we choose Terraform Cloud', new Set(['terraform', 'cloud']));
    assert.ok(intent?.kinds.has('adr') && intent.types.has('decision'));
    assert.deepEqual([...(intent?.words ?? [])], ['choose']);
    assert.equal(kindIntent('why did we choose Terraform Cloud')?.kinds.has('terraform'), true);
  });

  it('ranks the ADR whose title names "Terraform Cloud" first for "why did we choose Terraform Cloud"', async () => {
    const { results } = await s.engine.recall({ query: 'why did we choose Terraform Cloud', limit: 10 });
    const ranked = results.map(keyOf);
    assert.equal(ranked[0], 'docs/adr/0007-replace-terraform-cloud.md', ranked.join('\n'));
    // ADR 0001 matched only "choosing" (a stem of "choose") and the words apart: it comes later.
    const first = ranked.indexOf('docs/adr/0001-record-architecture-decisions.md');
    assert.ok(first === -1 || first > 0);
  });

  it('ranks the title holding "node pool" above text holding both words apart', async () => {
    const { results } = await s.engine.recall({ query: 'how big is each node pool', limit: 5 });
    assert.equal(keyOf(results[0]), 'docs/adr/0004-node-pools.md', results.map(keyOf).join('\n'));
  });

  it('puts a memory titled with the phrase above memories with the words apart', async () => {
    const apart = s.engine.remember(
      person,
      memory({ title: 'Cloud credentials for Terraform plans', description: 'Plans read credentials from the vault' }),
    );
    const named = s.engine.remember(
      person,
      memory({ title: 'Terraform Cloud workspaces are read-only', description: 'Nobody applies from the UI' }),
    );
    const { results } = await s.engine.recall({ query: 'Terraform Cloud', types: ['decision'], limit: 5 });
    const keys = results.map((h) => h.key);
    assert.ok(keys.indexOf(named.key) < keys.indexOf(apart.key), keys.join(', '));
  });
});

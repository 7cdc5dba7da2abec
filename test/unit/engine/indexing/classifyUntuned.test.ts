// The failure classes found on four infrastructure repositories nobody had tuned the classifier on
// (issue 17, point 1: modernisation-platform, govuk-helm-charts, govuk-aws, teacher-services-cloud),
// one test per class, on excerpts kept under test/fixtures/classify (licences beside them) or on
// texts written here in the same shape. Each assertion failed on the classifier before its fix.

import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chartRootsOf, classify } from '../../../../src/engine';
import { isTemplateDocument } from '../../../../src/engine/indexing/classify';

const FIXTURES = join(__dirname, '..', '..', '..', 'fixtures', 'classify');

/** The kind of a fixture, classified by its path inside its repository (as the indexer sees it). */
function kindOf(repo: string, path: string, paths: string[] = [path]): string {
  const text = readFileSync(join(FIXTURES, repo, path), 'utf8');
  return classify(path, text, { chartRoots: chartRootsOf(paths) });
}

function fixture(repo: string, path: string): string {
  return readFileSync(join(FIXTURES, repo, path), 'utf8');
}

describe('classify: failure classes of four untuned infrastructure repositories', () => {
  it('a folder named for decision records with a word in front (architecture-decision-record/) holds ADRs', () => {
    const record = 'architecture-decision-record/0043-enforce-s3-kms-encryption-with-scp-guardrails.md';
    assert.equal(kindOf('modernisation-platform', record), 'adr');
    const nygard = '# 7. Use queues\n\n## Status\n\nAccepted\n\n## Context\n\nText.\n';
    for (const folder of ['architecture-decision-records', 'decision-records', 'adrs', 'decisions', 'design-decisions'])
      assert.equal(classify(`docs/${folder}/0007-use-queues.md`, nygard), 'adr', folder);
    // A page's own folder whose long name ends in "decisions" is no collection of records.
    const guide = '# Guidelines\n\nStatus of this page: draft. Think twice.\n';
    assert.equal(classify('documents/guidelines-to-achieve-sustainable-decisions/index.md', guide), 'guide');
  });

  it('a MADR-style record with Pros and Cons under each option is an ADR in any folder', () => {
    const record = 'architecture-decision-record/0038-stop-storing-binaries-and-archives-in-git.md';
    const text = fixture('modernisation-platform', record);
    assert.equal(classify('notes-elsewhere/0038-stop-storing-binaries.md', text), 'adr');
    assert.equal(classify('binaries.md', text), 'adr');
    const madr =
      '# Use PostgreSQL\n\n## Context and Problem Statement\n\nWe need a database.\n\n## Considered Options\n\n' +
      '* PostgreSQL\n* MySQL\n\n## Decision Outcome\n\nPostgreSQL.\n\n## Pros and Cons of the Options\n\n' +
      '### PostgreSQL\n\n* Good, because mature\n\n### MySQL\n\n* Good, because known\n* Bad, because licence\n\n' +
      '### SQLite\n\n* Bad, because one writer\n';
    assert.equal(classify('docs/database.md', madr), 'adr');
    // A page about a record format that embeds one example record stays a guide.
    const about =
      '# Markdown Architectural Decision Records\n\n## Contents\n\nText.\n\n## News\n\nText.\n\n' +
      '## Overview\n\nText.\n\n' +
      '## Example\n\n# Use JUnit5\n\n## Context and Problem Statement\n\nText.\n\n' +
      '## Considered Options\n\n* a\n\n' +
      '## Decision Outcome\n\nText.\n\n## Applying MADR\n\nText.\n\n## Large projects\n\nText.\n\n' +
      '## Full template\n\nText.\n\n## Older versions\n\nText.\n\n## License\n\nText.\n';
    assert.equal(classify('docs/index.md', about), 'guide');
  });

  it('a README that explains a folder of templates is a readme; one titled as one template is the template', () => {
    const eso = 'charts/external-secrets/externalsecrets-templates/README.md';
    assert.equal(kindOf('govuk-helm-charts', eso), 'readme');
    assert.equal(isTemplateDocument(eso, fixture('govuk-helm-charts', eso)), false);
    const makefile = '# Changing the build file templates\n\nKeep tabs, not spaces, when you edit these files.\n';
    assert.equal(classify('templates/service/build/README.md', makefile), 'readme');
    // Still templates: a README titled as one template, and a skeleton with placeholders to fill in.
    const record = '# Decision record template by Michael Nygard\n\n## Status\n\nWhat is the status?\n';
    assert.equal(classify('templates/decision-record-template-by-michael-nygard/README.md', record), 'other');
    const skeleton = '# {Service name} runbook\n\n## Restart\n\nSteps.\n';
    assert.equal(classify('templates/service/runbook.md', skeleton), 'other');
  });

  it("a chart's Prometheus rule files and promtool tests, read with .Files.Glob, are config, not helm", () => {
    const rules = 'charts/monitoring-config/rules';
    const paths = ['charts/monitoring-config/Chart.yaml', `${rules}/graphql.yaml`, `${rules}/whitehall_tests.yaml`];
    assert.equal(kindOf('govuk-helm-charts', `${rules}/graphql.yaml`, paths), 'config');
    assert.equal(kindOf('govuk-helm-charts', `${rules}/whitehall_tests.yaml`, paths), 'config');
    // Values files beside them, and a values overlay the chart reads the same way, stay helm.
    const ctx = { chartRoots: new Set(['charts/monitoring-config']) };
    assert.equal(classify('charts/monitoring-config/tempo-values.yaml', 'tempo:\n  retention: 24h\n', ctx), 'helm');
    assert.equal(classify('charts/monitoring-config/files/profile-demo.yaml', 'global:\n  proxy: {}\n', ctx), 'helm');
  });

  it("a GitHub Action's action.yml (Docker or composite) is ci", () => {
    assert.equal(kindOf('govuk-helm-charts', '.github/actions/promtool/action.yml'), 'ci');
    const composite =
      'name: Check infrastructure\ninputs:\n  token:\n    required: true\nruns:\n  using: composite\n' +
      '  steps:\n    - run: terraform validate\n      shell: bash\n';
    assert.equal(classify('.github/actions/check-infra/action.yml', composite), 'ci');
    // A file named action.yml that runs nothing is not one.
    assert.equal(classify('config/action.yml', 'name: x\ntimeout: 5\n'), 'config');
  });

  it('a short procedure set off by an alert is a runbook, whatever verbs its steps use', () => {
    const revalidation =
      '# Edge certificate revalidation\n\nWhen the CDN certificate is close to its expiry date, the uptime ' +
      'checker sends alerts. To revalidate it:\n\n' +
      '1. Sign in to the cloud console\n1. Request the elevated role\n1. Once it is granted, open the CDN profile\n' +
      "1. Choose 'Custom domains' in the menu\n1. Regenerate the validation record\n" +
      "1. Then 'refresh' the domain's state\n\n## Check\n\n1. Confirm the record now reads 'Approved'\n" +
      '2. Check the uptime checker shows the new dates\n';
    assert.equal(classify('docs/edge-certificate-revalidation.md', revalidation), 'runbook');
    // The same steps with no occasion to act are how to use a tool: a guide.
    const howTo = revalidation.replace(/When the CDN[^:]*:/, 'The console lists the domains:');
    assert.equal(classify('documentation/portal-domains.md', howTo), 'guide');
  });

  it('steps and commands to enable, fail over and disable a maintenance page in an incident make a runbook', () => {
    const maintenance =
      '# Holding page\n\nThe holding page app takes the traffic in case of a planned outage window or an incident ' +
      'in the service. Users see it at the same address.\n\n' +
      '## Deploy holding app\n\nIt runs beside the service with its own ingress.\n\n## Fail over\n\n' +
      'The ingresses are pointed at the holding app.\n\n## First-time set-up\n\n' +
      '- Ensure the build tools are present\n- Use the sample folder to start\n- Check the page in a browser\n' +
      '- Create a workflow for the switch\n\n## Enable the holding page\n\n' +
      '- Run: `make <env> holding-on TOKEN=...`\n\n## Disable the holding page\n\n' +
      '- Run: `make <env> holding-off`\n';
    assert.equal(classify('docs/holding-page.md', maintenance), 'runbook');
  });

  it('an explanatory page that uses the vocabulary of operating, in a runbook folder or not, is a guide', () => {
    const security = 'source/runbooks/security-monitoring.html.md.erb';
    assert.equal(kindOf('modernisation-platform', security), 'guide');
    const overview =
      '# Observability\n\nWhat watches the clusters.\n\n## Metrics\n\nThe metrics server is on in every cluster. ' +
      'Its process needs a restart to pick up new rules, and an upgrade of it is a variable in the cluster ' +
      'module.\n\n## Long-term storage\n\nA sidecar ships blocks to object storage; they survive a restart, old ' +
      'ones are cleared by a compactor and no second restart is needed.\n\n' +
      '## Settings\n\n- store_mem - sidecar memory limit\n- raw_retention - how long raw samples stay\n\n' +
      '### Troubleshooting connection limits\n\nNo alert names the service that holds the connections. An ' +
      'upgrade of the node pool spreads them.\n';
    assert.equal(classify('docs/observability.md', overview), 'guide');
    // A runbook folder's page with steps stays a runbook.
    const steps = '# Rotate keys\n\n1. Open the console\n2. Create a new key\n3. Delete the old key\n';
    assert.equal(classify('source/runbooks/rotate.html.md.erb', steps), 'runbook');
  });

  it('a three-line chart README that names an operation, with no procedure in it, is a readme', () => {
    assert.equal(kindOf('govuk-helm-charts', 'charts/argo-bootstrap/README.md'), 'readme');
  });

  it('tech-docs pages saved as .md.erb or .html.erb are prose; partials and layouts are code', () => {
    const steps = '# Rotate keys\n\n1. Open the console\n2. Create a new key\n3. Delete the old key\n';
    assert.equal(classify('source/runbooks/rotate-keys.md.erb', steps), 'runbook');
    const page = '---\ntitle: Dictionary\n---\n\n<h1>Dictionary</h1>\n\n<p>Words we use, and what they mean.</p>\n';
    assert.equal(classify('source/manual/dictionary.html.erb', page), 'guide');
    assert.equal(classify('source/partials/_header.html.erb', '<header><%= title %></header>\n'), 'code');
  });
});

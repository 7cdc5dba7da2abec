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
    const makefile = '# Editing makefile templates\n\nNOTE: Makefile requires tab indentation, not spaces.\n';
    assert.equal(classify('templates/new_service_config/makefile/README.md', makefile), 'readme');
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
      'name: Validate Terraform\ninputs:\n  token:\n    required: true\nruns:\n  using: composite\n' +
      '  steps:\n    - run: terraform validate\n      shell: bash\n';
    assert.equal(classify('.github/actions/validate-terraform/action.yml', composite), 'ci');
    // A file named action.yml that runs nothing is not one.
    assert.equal(classify('config/action.yml', 'name: x\ntimeout: 5\n'), 'config');
  });

  it('a short procedure set off by an alert is a runbook, whatever verbs its steps use', () => {
    const revalidation =
      '# Front door certificate revalidation\n\nWhen a front door certificate is about to expire, we get alerts ' +
      'by text and email. The following outlines the steps to revalidate the certificate:\n\n' +
      '1. Login to the azure portal\n1. Create a PIM request\n1. Once it is approved, go to the front door\n' +
      "1. Select 'Settings' and then 'Domains'\n1. Regenerate the TXT records\n" +
      "1. Then 'update' the 'DNS record status'\n\n## Testing\n\n1. Confirm the record has been updated\n" +
      '2. Check statuscake for the new dates\n';
    assert.equal(classify('documentation/frontdoor-certificate-revalidation.md', revalidation), 'runbook');
    // The same steps with no occasion to act are how to use a tool: a guide.
    const howTo = revalidation.replace(/When a front door[^:]*:/, 'The portal shows the domains:');
    assert.equal(classify('documentation/portal-domains.md', howTo), 'guide');
  });

  it('steps and commands to enable, fail over and disable a maintenance page in an incident make a runbook', () => {
    const maintenance =
      '# Maintenance page\n\nA maintenance app can be used in case of planned maintenance or an incident on ' +
      'the main application. It serves all requests normally received by the main application.\n\n' +
      '## Deploy maintenance app\n\nThe maintenance app is deployed with its own service.\n\n## Fail over\n\n' +
      'The main ingresses point at the maintenance service.\n\n## Initial configuration\n\n' +
      '- Ensure docker is installed\n- Use the template to create the files\n- Check the content in a browser\n' +
      '- Create a workflow for maintenance mode\n\n## Enable maintenance\n\n' +
      '- Run: `make <environment> enable-maintenance GITHUB_TOKEN=xxx`\n\n## Disable maintenance\n\n' +
      '- Run: `make <environment> disable-maintenance`\n';
    assert.equal(classify('documentation/maintenance-page.md', maintenance), 'runbook');
  });

  it('an explanatory page that uses the vocabulary of operating, in a runbook folder or not, is a guide', () => {
    const security = 'source/runbooks/security-monitoring.html.md.erb';
    assert.equal(kindOf('modernisation-platform', security), 'guide');
    const overview =
      '# Monitoring\n\nDetails of the cluster monitoring.\n\n## Prometheus\n\nPrometheus is enabled for a cluster ' +
      'by default. A restart of the prometheus process is required after a change to its rules. An upgrade of ' +
      'the version is made in the kubernetes variables.\n\n## Thanos\n\nThanos runs as a sidecar. Its data is ' +
      'kept after a restart; the compactor clears old blocks and a second restart is never needed.\n\n' +
      '## Alerts\n\n- thanos_app_mem - sidecar memory limit\n- thanos_retention_raw - retention of raw samples\n\n' +
      '### Troubleshooting port exhaustion\n\nThe alert cannot say which service uses the ports. An upgrade ' +
      'of the node pool spreads them.\n';
    assert.equal(classify('documentation/monitoring.md', overview), 'guide');
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

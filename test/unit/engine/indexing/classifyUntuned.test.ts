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

  it('a three-line chart README that names an operation, with no procedure in it, is a readme', () => {
    assert.equal(kindOf('govuk-helm-charts', 'charts/argo-bootstrap/README.md'), 'readme');
  });

  it('a README that explains a folder of templates is no skeleton to drift; a partial or layout is code', () => {
    const eso = 'charts/external-secrets/externalsecrets-templates/README.md';
    assert.equal(isTemplateDocument(eso, fixture('govuk-helm-charts', eso)), false);
    assert.equal(classify('source/partials/_header.html.erb', '<header><%= title %></header>\n'), 'code');
  });
});

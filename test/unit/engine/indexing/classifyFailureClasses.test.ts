// The failure classes the multi-repository evaluation found (issue 17, point 1), one test per class,
// on unchanged excerpts of the evaluation repositories kept under test/fixtures/classify (licences
// beside them). Each assertion failed on the classifier as it was before the class was fixed.

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

describe('classify: failure classes of the multi-repository evaluation', () => {
  it('a task title that names an operation makes a short procedure a runbook', () => {
    const govuk = 'govuk-developer-docs';
    assert.equal(kindOf(govuk, 'source/manual/deploy-banner-to-certain-pages.html.md'), 'runbook');
    assert.equal(kindOf(govuk, 'source/manual/howto-remove-change-note.html.md'), 'runbook');
    assert.equal(kindOf(govuk, 'source/manual/prevent-an-unhelpful-autocomplete-suggestion.html.md'), 'runbook');
    // Still a runbook: operating title and vocabulary.
    assert.equal(kindOf(govuk, 'source/manual/clear-the-redis-cache.html.md'), 'runbook');
  });

  it('numbered steps and commands alone, with no operation named, make a how-to guide', () => {
    const codecommit = 'source/manual/howto-checkout-and-commit-to-codecommit.html.md';
    assert.equal(kindOf('govuk-developer-docs', codecommit), 'guide');
    assert.equal(kindOf('govuk-developer-docs', 'source/manual/find-usage-of-govspeak-in-content.html.md'), 'guide');
    assert.equal(kindOf('mkdocs', 'docs/dev-guide/translations.md'), 'guide');
  });

  it('a page that mentions upgrades now and then is a guide: the vocabulary must be dense to count twice', () => {
    assert.equal(kindOf('mkdocs', 'docs/user-guide/choosing-your-theme.md'), 'guide');
  });

  it('a page whose sections install tools is setup instructions, a guide', () => {
    assert.equal(kindOf('govuk-developer-docs', 'source/kubernetes/get-started/set-up-tools/index.html.md'), 'guide');
  });

  it('a page with nothing but its title is other', () => {
    assert.equal(kindOf('govuk-developer-docs', 'source/mobile/general/index.html.md'), 'other');
    assert.equal(classify('docs/index.md', '# Unicode Test Documentation\n'), 'other');
    assert.equal(classify('docs/index.md', '# Unicode Test Documentation\n\nOne line of text.\n'), 'guide');
  });

  it('Kubernetes-shaped tool config (IstioOperator, kind, Skaffold) is config, not a manifest', () => {
    assert.equal(kindOf('istio', 'manifests/profiles/minimal.yaml'), 'config');
    assert.equal(kindOf('istio', 'prow/config/default.yaml'), 'config');
    assert.equal(kindOf('istio', 'samples/cicd/skaffold/skaffold.yaml'), 'config');
    assert.equal(classify('kubeconfig.yaml', 'apiVersion: v1\nkind: Config\nclusters: []\n'), 'config');
    // A custom resource applied to a cluster stays a manifest.
    assert.equal(classify('k8s/gw.yaml', 'apiVersion: networking.istio.io/v1\nkind: Gateway\n'), 'kubernetes');
  });

  it('values kept in a Helm-named folder outside any chart are helm', () => {
    assert.equal(kindOf('istio', 'manifests/helm-profiles/ambient.yaml'), 'helm');
  });

  it("a manifest under a chart's files/ is kubernetes: Helm renders only templates/", () => {
    const chart = 'manifests/charts/istio-control/istio-discovery';
    const paths = [`${chart}/Chart.yaml`, `${chart}/files/waypoint.yaml`];
    assert.equal(kindOf('istio', `${chart}/files/waypoint.yaml`, paths), 'kubernetes');
    const templated = 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: {{ .Release.Name }}\n';
    assert.equal(classify(`${chart}/templates/sa.yaml`, templated, { chartRoots: new Set([chart]) }), 'helm');
  });

  it('an OpenAPI or Swagger description is other, not config', () => {
    assert.equal(kindOf('istio', 'samples/bookinfo/swagger.yaml'), 'other');
  });

  it('a decision record is known by a title that says so, README or not, in any folder', () => {
    assert.equal(kindOf('adr', 'ejemplos/base-de-datos/README.md'), 'adr');
    assert.equal(kindOf('adr', 'örnekler/go-dili/index.md'), 'adr');
    // A page about records is not one.
    const about = '# What is an architecture decision record?\n\nA record of one choice.\n';
    assert.equal(classify('docs/what-is-an-adr.md', about), 'guide');
  });

  it("decision records in Tyree and Akerman's format, and Nygard's sections in other languages, are adr", () => {
    assert.equal(kindOf('adr', 'records/secrets-storage/index.md'), 'adr');
    const es =
      '# Usar colas\n## Estado\nAceptado.\n## Contexto\nTexto.\n' +
      '## Decisión\nColas.\n## Consecuencias\nMás piezas.\n';
    assert.equal(classify('docs/colas.md', es), 'adr');
  });

  it('templates in folders named in other languages, titled as templates, are other (their README too)', () => {
    assert.equal(kindOf('adr', 'plantillas/plantilla-nygard/index.md'), 'other');
    assert.equal(kindOf('adr', 'plantillas/plantilla-nygard/README.md'), 'other');
    assert.equal(kindOf('adr', 'テンプレート/意思決定記録テンプレート/README.md'), 'other');
    assert.equal(kindOf('adr', 'templates/record-template-by-tyree/LICENSE-WIP.md'), 'other');
    // The collection's index is other too, but no skeleton: drift still reads its links.
    const index = readFileSync(join(FIXTURES, 'adr', 'plantillas/index.md'), 'utf8');
    assert.equal(classify('plantillas/index.md', index), 'other');
    assert.equal(isTemplateDocument('plantillas/index.md', index), false);
    const nygard = 'plantillas/plantilla-nygard/index.md';
    assert.equal(isTemplateDocument(nygard, readFileSync(join(FIXTURES, 'adr', nygard), 'utf8')), true);
  });

  it('a page in a script written without spaces is prose, not an outline', () => {
    assert.equal(kindOf('adr', 'guides/提案.md'), 'guide');
  });

  it('an incident report whose sections are bold bullets is a postmortem, in any folder', () => {
    assert.equal(kindOf('written', 'docs/2023-04-01-checkout.md'), 'postmortem');
  });

  it('a few numbered steps that each start with an operation make a runbook without a telling title', () => {
    assert.equal(kindOf('written', 'docs/db-password.md'), 'runbook');
  });

  it('a README titled as the procedure it is, with its commands, is a runbook', () => {
    assert.equal(kindOf('istio', 'tools/certs/README.md'), 'runbook');
    const upgrade = '# How to upgrade\n\nCopy the vendor manifests:\n\n```sh\ncurl -Ls $URL -o x.tgz\n```\n';
    assert.equal(classify('charts/x/README.md', upgrade), 'runbook');
    // A README named for its project, with a tear-down list at the end, stays a readme.
    const example =
      '# Karpenter Example\n## Usage\n```bash\nterraform apply\n```\n' +
      '### Tear down\n1. Remove the deployment\n2. Remove the resources\n';
    assert.equal(classify('examples/karpenter/README.md', example), 'readme');
  });
});

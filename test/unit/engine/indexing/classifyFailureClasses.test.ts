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
  it('a page that mentions upgrades now and then is a guide: the vocabulary must be dense to count twice', () => {
    assert.equal(kindOf('mkdocs', 'docs/user-guide/choosing-your-theme.md'), 'guide');
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

  it("a template collection's index is no skeleton to drift; one template with placeholders is", () => {
    const index = readFileSync(join(FIXTURES, 'adr', 'plantillas/index.md'), 'utf8');
    assert.equal(isTemplateDocument('plantillas/index.md', index), false);
    const nygard = 'plantillas/plantilla-nygard/index.md';
    assert.equal(isTemplateDocument(nygard, readFileSync(join(FIXTURES, 'adr', nygard), 'utf8')), true);
  });
});

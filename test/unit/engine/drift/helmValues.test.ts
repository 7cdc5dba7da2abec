// Helm value keys written as dotted paths (issue 17, point 4): `global.networkPolicy.enabled` is the
// nested key of a chart's values file, and the template that alone reads it is what makes it do
// anything. A release note naming one of several charts that define the path means that chart's.
// Fixture: test/fixtures/drift-helm-values (SOURCE.md), modelled on Istio's charts.

import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { valuePaths } from '../../../../src/engine/drift/helmValues';
import { findDefinitions } from '../../../../src/engine/drift/symbols';
import { driftSpace, type DriftSpace } from '../../../support/drift';
import { fixtureFiles } from '../../../support/fixtureFiles';

const FIXTURE = join(__dirname, '../../../fixtures/drift-helm-values');
const NOTE = 'releasenotes/notes/ztunnel-networkpolicy.yaml';
const VALUE = 'global.networkPolicy.enabled';
const TEMPLATE = 'charts/ztunnel/templates/networkpolicy.yaml';

describe('drift: Helm values named by their dotted path', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  const targets = (source: string, raw: string) =>
    s
      .refs(source, raw)
      .map((r) => [r.reference.target_path, r.state])
      .sort();

  it("watches the named chart's key and the one template that reads it, not the other chart's", () => {
    s = driftSpace(fixtureFiles(FIXTURE));
    s.engine.driftScan();
    assert.deepEqual(targets(NOTE, VALUE), [
      [TEMPLATE, 'current'],
      ['charts/ztunnel/values.yaml', 'current'],
    ]);
  });

  it('deleting the only template that reads the value is drift for the note, although the key stays', () => {
    s = driftSpace(fixtureFiles(FIXTURE));
    s.engine.driftScan();
    s.remove(TEMPLATE);
    const checked = s.engine.driftCheck([TEMPLATE]).filter((f) => f.source.path === NOTE && f.reference.raw === VALUE);
    assert.deepEqual(
      checked.map((f) => [f.reference.target_path, f.state]),
      [[TEMPLATE, 'gone']],
    );
    s.engine.driftScan();
    assert.deepEqual(targets(NOTE, VALUE), [
      [TEMPLATE, 'gone'],
      ['charts/ztunnel/values.yaml', 'current'],
    ]);
    // The gateway's copy of the template is no place the ztunnel one moved to.
    assert.match(s.refs(NOTE, VALUE).find((r) => r.state === 'gone')!.evidence.detail, /was deleted/);
  });

  it("an edit of the other chart's key is not drift for the note; an edit of its own is", () => {
    s = driftSpace(fixtureFiles(FIXTURE));
    s.engine.driftScan();
    s.write('charts/gateway/values.yaml', 'global:\n  networkPolicy:\n    enabled: true\nreplicaCount: 1\n');
    assert.deepEqual(
      s.engine.driftCheck(['charts/gateway/values.yaml']).filter((f) => f.source.path === NOTE),
      [],
    );
    const values = fixtureFiles(FIXTURE)['charts/ztunnel/values.yaml'];
    s.write('charts/ztunnel/values.yaml', values.replace('enabled: false', 'enabled: true'));
    const changed = s.engine.driftCheck(['charts/ztunnel/values.yaml']).filter((f) => f.source.path === NOTE);
    assert.deepEqual(
      changed.map((f) => [f.reference.raw, f.state]),
      [[VALUE, 'changed']],
    );
  });

  it('a renamed chart takes its values along', () => {
    s = driftSpace(fixtureFiles(FIXTURE));
    s.engine.driftScan();
    const before = Object.keys(fixtureFiles(FIXTURE)).filter((p) => p.startsWith('charts/ztunnel/'));
    s.move('charts/ztunnel', 'charts/zt');
    s.engine.driftCheck([...before, ...before.map((p) => p.replace('charts/ztunnel/', 'charts/zt/'))]);
    s.engine.driftScan();
    assert.deepEqual(
      s
        .refs(NOTE, VALUE)
        .map((r) => [r.state, r.evidence.new_path])
        .sort(),
      [
        ['relocated', 'charts/zt/templates/networkpolicy.yaml'],
        ['relocated', 'charts/zt/values.yaml'],
      ],
    );
  });

  it("a key of an older store's reference that is deleted does not move to a template reading it", () => {
    // Values and templates outside a chart (no Chart.yaml): the read is not watched, so it is a candidate of a move.
    s = driftSpace({
      'deploy/README.md': '# Deploy\n\nSet `global.networkPolicy.enabled` to create a NetworkPolicy.\n',
      'deploy/values.yaml': 'global:\n  networkPolicy:\n    enabled: false\nreplicaCount: 1\n',
      'deploy/templates/np.yaml': '{{- if .Values.global.networkPolicy.enabled }}\nkind: NetworkPolicy\n{{- end }}\n',
    });
    s.engine.driftScan();
    const readme = 'deploy/README.md';
    assert.deepEqual(targets(readme, VALUE), [['deploy/values.yaml', 'current']]);
    s.sql('UPDATE drift_refs SET symbol_kind = NULL WHERE source = ?', [readme]);
    s.write('deploy/values.yaml', 'replicaCount: 1\n');
    s.engine.driftCheck(['deploy/values.yaml']);
    s.engine.driftScan();
    assert.deepEqual(targets(readme, VALUE), [['deploy/values.yaml', 'gone']]);
  });

  it("a chart README's partial path is its own chart's key", () => {
    s = driftSpace(fixtureFiles(FIXTURE));
    s.engine.driftScan();
    assert.deepEqual(targets('charts/gateway/README.md', 'networkPolicy.enabled'), [
      ['charts/gateway/values.yaml', 'current'],
    ]);
  });

  it('names every tail of a nested key, and none for keys inside list items or block scalars', () => {
    const text = 'a:\n  b:\n    c: 1\n  list:\n  - name: x\n    d: 2\n  script: |\n    e: 3\n  f: 4\n';
    const names = valuePaths(text.split('\n'), findDefinitions('values.yaml', text)).map((d) => d.name);
    assert.deepEqual(names, ['a.b', 'a.b.c', 'b.c', 'a.list', 'a.script', 'a.f']);
  });
});

// Release-note fragments are documents drift reads (issue 17, point 4): Istio and reno write one
// change per `releasenotes/notes/*.yaml`, its markdown in YAML strings, and its upgrade notes name
// Helm value keys (`--set resourceName=…`) that a chart's values.yaml defines. Fixture: an excerpt
// of istio/istio (Apache-2.0, test/fixtures/conventions/SOURCE.md).

import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { driftSpace, type DriftSpace } from '../../../support/drift';
import { fixtureFiles } from '../../../support/fixtureFiles';

const ISTIO = join(__dirname, '../../../fixtures/conventions/istio');
const NOTE = 'releasenotes/notes/ztunnel-helm-chart-revert.yaml';
const VALUES = 'manifests/charts/ztunnel/values.yaml';

describe('drift: release-note fragments', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  it('a Helm value key an upgrade note names is watched in the chart that defines it', () => {
    s = driftSpace(fixtureFiles(ISTIO));
    s.engine.driftScan();
    const [ref] = s.refs(NOTE, 'resourceName');
    assert.equal(ref?.reference.target_path, VALUES, JSON.stringify(s.all().filter((f) => f.source.path === NOTE)));
    assert.equal(ref.state, 'current');
    assert.equal(ref.source.line, 15);
    const values = fixtureFiles(ISTIO)[VALUES];
    s.write(VALUES, values.replace('  resourceName: ""', '  resourceName: "ztunnel"'));
    s.engine.driftCheck([VALUES]);
    assert.equal(s.refs(NOTE, 'resourceName')[0].state, 'changed');
  });

  it("a root link of a note is a page of the project's website, not a broken path here", () => {
    const note = 'releasenotes/notes/dns.yaml';
    const text =
      'apiVersion: release-notes/v2\nkind: bug-fix\nreleaseNotes:\n- ' +
      '|\n  **Fixed** a loop; see [DNS proxy](/docs/ops/dns-proxy/).\n';
    s = driftSpace({ ...fixtureFiles(ISTIO), [note]: text });
    s.engine.driftScan();
    assert.deepEqual(
      s.all().filter((f) => f.source.path === note),
      [],
    );
  });

  it('an edit elsewhere in values.yaml leaves the note current', () => {
    s = driftSpace(fixtureFiles(ISTIO));
    s.engine.driftScan();
    s.write(VALUES, fixtureFiles(ISTIO)[VALUES].replace('tag: latest', 'tag: 1.26.0'));
    s.engine.driftCheck([VALUES]);
    assert.equal(s.refs(NOTE, 'resourceName')[0].state, 'current');
  });
});

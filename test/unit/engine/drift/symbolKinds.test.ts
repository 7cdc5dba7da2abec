// A symbol relocates only to a definition of the same kind (issue 17, point 4): a Terraform variable
// deleted from one module does not "move" to another module's output of the same name, because each
// reference stores the kind of the definition it was fingerprinted from. A variable that really moves
// to another file of its module still relocates. Fixture: test/fixtures/drift-kinds (SOURCE.md).

import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { driftSpace, type DriftSpace } from '../../../support/drift';
import { fixtureFiles } from '../../../support/fixtureFiles';

const FIXTURE = join(__dirname, '../../../fixtures/drift-kinds');
const README = 'modules/eks/README.md';
const VARIABLES = 'modules/eks/variables.tf';
const WITHOUT_CLUSTER_NAME =
  'variable "node_count" {\n  description = "Worker nodes in the default node group"\n' +
  '  type        = number\n  default     = 3\n}\n';
const CLUSTER_NAME =
  'variable "cluster_name" {\n  description = "Name of the EKS cluster"\n  type        = string\n}\n';

describe('drift: a symbol keeps the kind of its definition', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  const clusterName = () => s.refs(README, 'cluster_name');

  it('a variable deleted while an output of its name exists elsewhere is gone, not moved to the output', () => {
    s = driftSpace(fixtureFiles(FIXTURE));
    s.engine.driftScan();
    assert.deepEqual(
      clusterName().map((r) => [r.reference.target_path, r.state]),
      [[VARIABLES, 'current']],
    );
    assert.equal(s.rows(README, 'cluster_name').length, 1);
    s.write(VARIABLES, WITHOUT_CLUSTER_NAME);
    // The output is saved in the same event: it is a candidate of the per-save check too.
    const checked = s.engine
      .driftCheck([VARIABLES, 'modules/vpc/outputs.tf'])
      .find((f) => f.reference.raw === 'cluster_name');
    assert.equal(checked?.state, 'gone', JSON.stringify(checked));
    s.engine.driftScan();
    const [scanned] = clusterName();
    assert.equal(scanned.state, 'gone', JSON.stringify(scanned));
    assert.match(scanned.evidence.detail, /cluster_name is no longer defined in modules\/eks\/variables\.tf/);
  });

  it('a variable moved to another file of its module is relocated there', () => {
    s = driftSpace(fixtureFiles(FIXTURE));
    s.engine.driftScan();
    s.write(VARIABLES, WITHOUT_CLUSTER_NAME);
    s.write('modules/eks/inputs.tf', CLUSTER_NAME);
    const [checked] = s.engine
      .driftCheck([VARIABLES, 'modules/eks/inputs.tf'])
      .filter((f) => f.reference.raw === 'cluster_name');
    assert.equal(checked?.state, 'relocated', JSON.stringify(checked));
    assert.equal(checked.evidence.new_path, 'modules/eks/inputs.tf');
    s.engine.driftScan();
    assert.deepEqual(
      clusterName().map((r) => [r.state, r.evidence.new_path]),
      [['relocated', 'modules/eks/inputs.tf']],
    );
  });

  it('a store written before kinds were recorded is upgraded; its references learn their kind on the next scan', () => {
    s = driftSpace(fixtureFiles(FIXTURE));
    s.engine.driftScan();
    // The store as schema version 9 left it: no symbol_kind column (nor version 11's code pages).
    s.sql('ALTER TABLE drift_refs DROP COLUMN symbol_kind', []);
    for (const table of ['chunk_vectors', 'memory_vectors'])
      for (const change of ['insert', 'update', 'delete']) s.sql(`DROP TRIGGER ${table}_pages_${change}`, []);
    s.sql('DROP TABLE vector_code_pages', []);
    // (Nor version 12's kind confidence.)
    for (const column of ['kind_confidence', 'kind_runner_up', 'kind_signals'])
      s.sql(`ALTER TABLE docs DROP COLUMN ${column}`, []);
    // Nor version 13's flag programs, already-broken marks and dismissals.
    s.sql('ALTER TABLE drift_refs DROP COLUMN command', []);
    s.sql('ALTER TABLE drift_refs DROP COLUMN already_broken', []);
    s.sql('DROP TABLE drift_dismissals', []);
    // Nor version 14's own kind readings.
    s.sql('ALTER TABLE docs DROP COLUMN kind_own', []);
    // Nor version 15's sealed copies.
    s.sql('ALTER TABLE memories DROP COLUMN state_sealed', []);
    for (const table of ['memory_events', 'authors', 'memory_vectors'])
      for (const column of ['sealed', 'seal_signature', 'seal_signer'])
        s.sql(`ALTER TABLE ${table} DROP COLUMN ${column}`, []);
    s.sql('PRAGMA user_version = 9', []);
    s.reopen();
    const kinds = () => s.rows(README, 'cluster_name').map((r) => r.symbol_kind);
    assert.deepEqual(kinds(), [null]);
    s.engine.driftScan();
    assert.deepEqual(kinds(), ['terraform variable']);
    s.write(VARIABLES, WITHOUT_CLUSTER_NAME);
    s.engine.driftScan();
    assert.equal(clusterName()[0].state, 'gone');
  });
});

// A symbol relocates only to a definition of the same kind (issue 17, point 4): a Terraform
// variable removed from variables.tf does not "move" to a YAML key of the same name.

import { strict as assert } from 'node:assert';
import { driftSpace } from '../../../support/drift';

describe('drift: relocation keeps the kind of definition', () => {
  it('a Terraform variable that disappears is gone, not moved to a YAML key named like it', () => {
    const s = driftSpace({
      'docs/inputs.md': '# Inputs\nSet `cluster_version_pin` to pin it.\n',
      'modules/eks/variables.tf': 'variable "cluster_version_pin" {\n  type = string\n}\n',
      'charts/app/values.yaml': 'replicas: 1\n',
    });
    try {
      s.engine.driftScan();
      assert.equal(
        s.refs('docs/inputs.md', 'cluster_version_pin')[0]?.reference.target_path,
        'modules/eks/variables.tf',
      );
      s.write('modules/eks/variables.tf', 'variable "other" {\n  type = string\n}\n');
      s.write('charts/app/values.yaml', 'replicas: 1\ncluster_version_pin: "1.29"\n');
      const found = s.engine
        .driftCheck(['modules/eks/variables.tf', 'charts/app/values.yaml'])
        .find((f) => f.reference.raw === 'cluster_version_pin');
      assert.equal(found?.state, 'gone', JSON.stringify(found));
    } finally {
      s.cleanup();
    }
  });
});

// Single-dash flags (issue 17, point 4): Go's flag package defines `-upgrade-version` (and accepts
// `--upgrade-version`); a doc naming the flag follows its definition, and loses it when it goes.

import { strict as assert } from 'node:assert';
import { driftSpace } from '../../../support/drift';

describe('drift: Go flags written with one dash', () => {
  it('resolves `-upgrade-version` to flag.String("upgrade-version") and reports its removal', () => {
    const s = driftSpace({
      'docs/upgrade.md': '# Upgrade\nRun `upgrader -upgrade-version 1.2 -rf` or pass `-kubeconfig`.\n',
      'cmd/upgrader/main.go':
        'package main\n\nimport "flag"\n\nvar v = ' +
        'flag.String("upgrade-version", "", "target")\n\nfunc main() ' +
        '{\n\tvar k string\n\tflag.StringVar(&k, "kubeconfig", "", ' +
        '"path")\n}\n',
    });
    try {
      s.engine.driftScan();
      const flag = s.refs('docs/upgrade.md', '-upgrade-version');
      assert.equal(flag.length, 1, JSON.stringify(s.all()));
      assert.equal(flag[0].reference.form, 'flag');
      assert.equal(flag[0].reference.target_path, 'cmd/upgrader/main.go');
      // A flag on its own is tied to no program (issue 31, point 2): `-kubeconfig` alone is no reference.
      assert.deepEqual(s.refs('docs/upgrade.md', '-kubeconfig'), []);
      assert.deepEqual(s.refs('docs/upgrade.md', '-rf'), [], 'a short option cluster is no flag reference');
      s.write(
        'cmd/upgrader/main.go',
        'package main\n\nimport "flag"\n\nvar v = ' +
          'flag.String("target-version", "", "target")\n\nfunc main() ' +
          '{\n\tvar k string\n\tflag.StringVar(&k, "kubeconfig", "", ' +
          '"path")\n}\n',
      );
      const after = s.engine.driftCheck(['cmd/upgrader/main.go']).find((f) => f.reference.raw === '-upgrade-version');
      assert.ok(after && after.state !== 'current', `expected the flag to drift, got ${JSON.stringify(after)}`);
    } finally {
      s.cleanup();
    }
  });
});

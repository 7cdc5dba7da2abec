// Coverage by default (issue 17, point 2): scripts, build files, JSON/YAML/INI/HCL/TOML config and
// CODEOWNERS are indexed; secret-bearing files and lock files stay out.

import { strict as assert } from 'node:assert';
import { discoveryMatcher } from '../../../../src/engine/indexing/discovery';

describe('discovery: what infrastructure engineers search for is indexed by default', () => {
  const m = discoveryMatcher();
  it('takes scripts, Makefiles, config and CODEOWNERS', () => {
    for (const path of [
      'scripts/rotate.sh',
      'hack/edit-keps.py',
      'cmd/main.go',
      'app/config.rb',
      'Makefile',
      'common/Makefile.common.mk',
      'package.json',
      'tox.ini',
      'pyproject.toml',
      'setup.cfg',
      'nginx/site.conf',
      '.tflint.hcl',
      'templates/vhost.conf.j2',
      '.github/CODEOWNERS',
      'inventory',
      'charts/x/values.schema.json',
    ])
      assert.ok(m.accepts(path), path);
  });
  it('still leaves out secret-bearing files and lock files', () => {
    for (const path of [
      'prod.tfvars',
      '.env',
      'certs/server.key',
      'tls.pem',
      'package-lock.json',
      'node_modules/x/index.js.json',
      'x.tfvars.json',
    ]) {
      assert.ok(!m.accepts(path), path);
    }
  });
  it('takes extension-less scripts in bin/, scripts/ and hack/, lower-case and just build files, OWNERS files', () => {
    const scripts = ['bin/deploy', 'scripts/bootstrap', 'tools/hack/verify-all', 'makefile', 'justfile', 'setup.zsh'];
    for (const path of [...scripts, 'OWNERS', 'keps/OWNERS_ALIASES']) assert.ok(m.accepts(path), path);
    // Only extension-less names there: a compiled tool with an extension is not a script.
    for (const path of ['bin/tool.exe', 'bin/lib/x', 'scripts/data.bin']) assert.ok(!m.accepts(path), path);
  });
  it('leaves out private keys in other formats, saved Terraform plans and tool tokens', () => {
    const secrets = ['keys/AuthKey_ABC.p8', 'putty/server.ppk', 'plan.tfplan', '.git-credentials', '.terraformrc'];
    for (const path of [...secrets, 'terraform.rc', '.vault-token']) assert.ok(!m.accepts(path), path);
  });
});

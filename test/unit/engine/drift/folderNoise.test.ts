// No noise (issue 17, point 5): editing one file in a folder does not flag every reference to that
// folder; adding or removing a file in it does.

import { strict as assert } from 'node:assert';
import { driftSpace } from '../../../support/drift';

describe('drift: folder references', () => {
  it('stay current when a file inside is edited, and change when the folder gains a file', () => {
    const s = driftSpace({
      'README.md': '# R\nThe modules live in `modules/network/`; see [vpc](modules/network/vpc.tf).\n',
      'modules/network/vpc.tf': 'resource "aws_vpc" "main" {}\n',
      'modules/network/outputs.tf': 'output "id" {}\n',
    });
    try {
      s.engine.driftScan();
      const folder = () => s.refs('README.md', 'modules/network/')[0];
      assert.equal(folder().state, 'current');
      s.write('modules/network/vpc.tf', 'resource "aws_vpc" "main" {\n  cidr_block = "10.0.0.0/16"\n}\n');
      s.engine.driftCheck(['modules/network/vpc.tf']);
      s.engine.driftScan();
      assert.equal(folder().state, 'current', 'an edit inside one file is not a change of the folder');
      assert.equal(s.refs('README.md', 'modules/network/vpc.tf')[0].state, 'changed', 'the file itself did change');
      s.write('modules/network/nat.tf', 'resource "aws_nat_gateway" "a" {}\n');
      s.engine.driftCheck(['modules/network/nat.tf']);
      s.engine.driftScan();
      assert.equal(folder().state, 'changed');
    } finally {
      s.cleanup();
    }
  });
});

describe('drift: a renamed folder', () => {
  it('is relocated to the folder that now holds the same names', () => {
    const s = driftSpace({
      'README.md': '# R\nThe web app lives in `packages/web`.\n',
      'packages/web/index.ts': 'export {};\n',
      'packages/web/package.json': '{}\n',
      'packages/core/index.ts': 'export {};\n',
    });
    try {
      s.engine.driftScan();
      s.move('packages/web', 'packages/site');
      // The save or watcher event names the files that moved.
      s.engine.driftCheck([
        'packages/web/index.ts',
        'packages/web/package.json',
        'packages/site/index.ts',
        'packages/site/package.json',
      ]);
      s.engine.driftScan();
      const ref = s.refs('README.md', 'packages/web')[0];
      assert.equal(ref.state, 'relocated', JSON.stringify(ref));
      assert.equal(ref.evidence.new_path, 'packages/site');
    } finally {
      s.cleanup();
    }
  });

  it('a deleted module is gone, not "moved" to a sibling module that holds the same file names', () => {
    const s = driftSpace({
      'README.md': '# R\nSee `modules/a` and `modules/b`.\n',
      'modules/a/main.tf': 'resource "x" "a" {}\n',
      'modules/a/variables.tf': 'variable "a" {}\n',
      'modules/b/main.tf': 'resource "x" "b" {}\n',
      'modules/b/variables.tf': 'variable "b" {}\n',
    });
    try {
      s.engine.driftScan();
      s.remove('modules/a/main.tf');
      s.remove('modules/a/variables.tf');
      s.engine.driftCheck(['modules/a/main.tf', 'modules/a/variables.tf']);
      s.engine.driftScan();
      assert.equal(s.refs('README.md', 'modules/a')[0].state, 'gone');
      assert.equal(s.refs('README.md', 'modules/b')[0].state, 'current');
    } finally {
      s.cleanup();
    }
  });
});

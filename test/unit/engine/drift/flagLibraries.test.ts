// Flags declared through flag libraries (issue 31, point 6): kingpin's `Flag("storage.path", …)`
// (dotted names), pflag's package functions and commander's `.option('-p, --port <n>')` declare the
// flags a doc's command line passes to that program; renaming one in the code is drift.

import { strict as assert } from 'node:assert';
import { driftSpace, type DriftSpace } from '../../../support/drift';

describe('drift: flags declared through flag libraries', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  const KINGPIN = [
    'package main',
    '',
    'import "gopkg.in/alecthomas/kingpin.v2"',
    '',
    'var (',
    '\tapp  = kingpin.New("store", "Object store gateway.")',
    '\tpath = app.Flag("storage.path", "Where blocks live.").Default("data/").String()',
    ')',
    '',
    'func main() { kingpin.MustParse(app.Parse(os.Args[1:])) }',
    '',
  ].join('\n');

  it("kingpin: `store --storage.path=/data` is the program's flag; renamed in the code, it drifts", () => {
    s = driftSpace({
      'cmd/store/main.go': KINGPIN,
      'docs/run.md': '# Run\n```\nstore --storage.path=/data --verbose\n```\n',
    });
    s.engine.driftScan();
    const [flag] = s.refs('docs/run.md', '--storage.path');
    assert.equal(flag?.state, 'current');
    assert.equal(flag.reference.target_path, 'cmd/store/main.go');
    s.write('cmd/store/main.go', KINGPIN.replace('"storage.path"', '"storage.dir"'));
    s.engine.driftCheck(['cmd/store/main.go']);
    assert.notEqual(s.refs('docs/run.md', '--storage.path')[0].state, 'current');
  });

  it('pflag and commander declarations are found as flags', () => {
    s = driftSpace({
      'cmd/sync/main.go':
        'package main\n\nimport "github.com/spf13/pflag"\n\nvar dry = pflag.BoolP("dry-run", "n", false, "x")\n',
      'bin/serve.js': "program.option('-p, --listen-port <n>', 'port').requiredOption('--root-dir <dir>');\n",
      'README.md': '# X\n`sync --dry-run` then `bin/serve.js --listen-port 80 --root-dir /srv`.\n',
    });
    s.engine.driftScan();
    assert.equal(s.refs('README.md', '--dry-run')[0]?.reference.target_path, 'cmd/sync/main.go');
    assert.equal(s.refs('README.md', '--listen-port')[0]?.reference.target_path, 'bin/serve.js');
    assert.equal(s.refs('README.md', '--root-dir')[0]?.state, 'current');
  });

  it('cobra, click and argparse declarations are found as flags; a flag renamed in the code drifts', () => {
    const cobra =
      'package cmd\n\nfunc init() {\n\tcreateCmd.Flags().StringVarP(&o.name, "cluster-name", "n", "kind", "x")\n}\n';
    s = driftSpace({
      'cmd/kind/create.go': cobra,
      'tools/report.py':
        'import click\n\n@click.command()\n@click.option("--since-days", default=7)\ndef main(since_days): pass\n',
      'tools/prune.py':
        'import argparse\np = argparse.ArgumentParser()\np.add_argument("--keep-last", type=int)\np.parse_args()\n',
      'README.md':
        '# X\n`kind --cluster-name dev`, `tools/report.py --since-days 3`, `tools/prune.py --keep-last 5`.\n',
    });
    s.engine.driftScan();
    assert.equal(s.refs('README.md', '--cluster-name')[0]?.reference.target_path, 'cmd/kind/create.go');
    assert.equal(s.refs('README.md', '--since-days')[0]?.reference.target_path, 'tools/report.py');
    assert.equal(s.refs('README.md', '--keep-last')[0]?.reference.target_path, 'tools/prune.py');
    s.write('tools/prune.py', 'import argparse\np = argparse.ArgumentParser()\np.add_argument("--keep", type=int)\n');
    s.engine.driftCheck(['tools/prune.py']);
    assert.notEqual(s.refs('README.md', '--keep-last')[0].state, 'current');
  });
});

describe('drift: Terraform variables no declaration defines', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  it('`var.x` in a code span is broken when no variable block declares it; one in a code block is not', () => {
    s = driftSpace({
      'modules/db/variables.tf': 'variable "instance_class" {\n  type = string\n}\n',
      'docs/db.md': [
        '# Database',
        'Size it with `var.instance_class`; backups follow `var.backup_window`.',
        '```hcl',
        'window = var.my_own_window',
        '```',
      ].join('\n'),
    });
    s.engine.driftScan();
    assert.equal(s.refs('docs/db.md', 'var.instance_class')[0]?.state, 'current');
    const [gone] = s.refs('docs/db.md', 'var.backup_window');
    assert.equal(gone?.state, 'broken');
    assert.equal(
      gone.evidence.detail,
      'var.backup_window is declared by no variable "backup_window" block in the workspace',
    );
    assert.deepEqual(s.refs('docs/db.md', 'var.my_own_window'), []);
    // Declared since: checked again, the reference holds.
    s.write('modules/db/variables.tf', 'variable "instance_class" {}\nvariable "backup_window" {}\n');
    s.engine.driftScan();
    assert.equal(s.refs('docs/db.md', 'var.backup_window')[0]?.state, 'current');
  });
});

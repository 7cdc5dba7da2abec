// Reference extraction and resolution, one form at a time, against a real workspace folder: what
// a user writes in a document (paths in code spans and blocks, relative and root links, GitHub
// URLs with line anchors, published-page links, folder links, heading anchors, bare file names,
// symbols and flags) and what it resolves to — or why it does not.

import assert from 'node:assert/strict';
import { driftSpace, type DriftSpace } from '../../../support/drift';

const DOC = [
  '# Operating the shop',
  'Run `scripts/deploy.sh` before anything else, or `deploy.sh` from its folder.',
  'See [the queue decision](../adr/0001-use-postgres.md) and [the root readme](/README.md).',
  'The claim lives in [app.ts](https://github.com/acme/shop/blob/main/src/app.ts#L2-L3).',
  'Restarting is in [the published runbook](../runbooks/restart.html) and [all runbooks](../runbooks).',
  'Jump to [the restart steps](../runbooks/README.md#restart-the-api).',
  'Jobs are claimed by `claimNext()` in `JobQueue`; the region is ' +
    '`var.region`, logs go to `aws_s3_bucket.logs`, networking is ' +
    '`module.network`.',
  'Pass `--dry-run` to try it. Chart settings are in `values.yaml`.',
  'Annotate with `kubernetes.io/ingress.class` (not a file of ours). This [link is dead](missing.md).',
  '',
  '```sh',
  './scripts/deploy.sh --dry-run /usr/local/bin/not-ours.sh',
  '```',
].join('\n');

const FILES: Record<string, string> = {
  'docs/guide.md': DOC,
  'README.md': '# Shop\n',
  'adr/0001-use-postgres.md': '# Use Postgres\n',
  'src/app.ts': 'import x from "y";\nexport function boot() {\n  return start();\n}\n',
  'src/jobs/queue.ts':
    'export class JobQueue {\n  size = 0;\n}\n\nexport function claimNext(db) {\n  return db.query("SELECT 1");\n}\n',
  'scripts/deploy.sh':
    '#!/bin/sh\nwhile [ $# -gt 0 ]; do\n  case "$1" in\n    --dry-run) DRY=1 ;;\n  esac\n  shift\ndone\n',
  'runbooks/restart.html.md.erb': '# Restart\n',
  'runbooks/README.md': '# Runbooks\n\n## Restart the API\n\nkubectl rollout restart deploy/api\n\n## Other\n',
  'infra/variables.tf': 'variable "region" {\n  default = "eu-west-2"\n}\n',
  'infra/main.tf':
    'resource "aws_s3_bucket" "logs" {\n  bucket = "logs"\n}\n\nmodule "network" {\n  source = "./network"\n}\n',
  'charts/a/values.yaml': 'replicas: 1\n',
  'charts/b/values.yaml': 'replicas: 2\n',
};

describe('drift: reference extraction', function () {
  let space: DriftSpace;
  before(() => {
    space = driftSpace(FILES, ['acme/shop']);
    space.engine.driftScan();
  });
  after(() => space.cleanup());

  const only = (raw: string) => {
    const refs = space.refs('docs/guide.md', raw);
    assert.equal(refs.length, 1, `expected one reference ${raw}, got ${JSON.stringify(refs)}`);
    return refs[0];
  };
  const resolves = (raw: string, form: string, target: string, symbol: string | null = null) => {
    const ref = only(raw);
    assert.equal(ref.reference.form, form, `${raw}: form`);
    assert.equal(ref.reference.target_path, target, `${raw}: target`);
    assert.equal(ref.reference.symbol ?? null, symbol, `${raw}: symbol`);
    assert.equal(ref.state, 'current', `${raw}: ${ref.evidence.detail}`);
  };

  it('finds a path in a code span, from the repository root', () =>
    resolves('scripts/deploy.sh', 'path', 'scripts/deploy.sh'));
  it("resolves a relative link that climbs out of the document's folder", () =>
    resolves('../adr/0001-use-postgres.md', 'link', 'adr/0001-use-postgres.md'));
  it('resolves a link with a leading slash from the repository root', () =>
    resolves('/README.md', 'link', 'README.md'));
  it('turns a same-repository GitHub blob URL with a line anchor into those lines of the file', () =>
    resolves('https://github.com/acme/shop/blob/main/src/app.ts#L2-L3', 'url', 'src/app.ts', 'L2-L3'));
  it('finds the source of a published page (x.html → x.html.md.erb)', () =>
    resolves('../runbooks/restart.html', 'published', 'runbooks/restart.html.md.erb'));
  it('finds the index page of an extensionless folder link', () =>
    resolves('../runbooks', 'index', 'runbooks/README.md'));
  it('narrows a heading anchor to that section', () =>
    resolves('../runbooks/README.md#restart-the-api', 'link', 'runbooks/README.md', 'restart-the-api'));
  it('resolves a bare file name that names one file', () => resolves('deploy.sh', 'filename', 'scripts/deploy.sh'));
  it('finds a function named with call syntax, and a class', () => {
    resolves('claimNext()', 'symbol', 'src/jobs/queue.ts', 'claimNext');
    resolves('JobQueue', 'symbol', 'src/jobs/queue.ts', 'JobQueue');
  });
  it('finds Terraform variables, resources and modules', () => {
    resolves('var.region', 'symbol', 'infra/variables.tf', 'var.region');
    resolves('aws_s3_bucket.logs', 'symbol', 'infra/main.tf', 'aws_s3_bucket.logs');
    resolves('module.network', 'symbol', 'infra/main.tf', 'module.network');
  });
  it('finds where a command-line flag is defined', () => {
    const refs = space.refs('docs/guide.md', '--dry-run');
    assert.equal(refs.length, 1, JSON.stringify(refs));
    assert.equal(refs[0].reference.form, 'flag');
    assert.equal(refs[0].reference.target_path, 'scripts/deploy.sh');
  });
  it('reports a bare file name with several candidates as ambiguous, naming them, instead of guessing', () => {
    const ref = only('values.yaml');
    assert.equal(ref.state, 'ambiguous');
    assert.equal(ref.reference.target_path, null);
    assert.match(
      ref.evidence.detail,
      /ambiguous: 2 files are named values\.yaml \(charts\/a\/values\.yaml, charts\/b\/values\.yaml\)/,
    );
  });
  it('reports a dead link as broken at the first scan', () => {
    const ref = only('missing.md');
    assert.equal(ref.state, 'broken');
    assert.match(ref.evidence.detail, /missing\.md does not exist/);
  });
  it("keeps a path in a code block only when it resolves, and ignores paths that are not the repository's", () => {
    resolves('./scripts/deploy.sh', 'path', 'scripts/deploy.sh');
    assert.deepEqual(space.refs('docs/guide.md', '/usr/local/bin/not-ours.sh'), []);
    assert.deepEqual(space.refs('docs/guide.md', 'kubernetes.io/ingress.class'), []);
  });
  it('records the line each reference is on', () => {
    assert.equal(only('../adr/0001-use-postgres.md').source.line, 3);
    assert.equal(only('values.yaml').source.line, 8);
  });
});

describe('drift: what is never kept', function () {
  it('does not store a reference that looks like a secret', () => {
    const token = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0'.repeat(2).slice(0, 36);
    const space = driftSpace(
      {
        'docs/a.md':
          `Clone [it](https://${token}@github.com/acme/shop/blob/main/x.md) ` +
          `and see ` +
          `[x](https://github.com/acme/shop/blob/main/${token}.md).\n`,
        'x.md': '# x\n',
      },
      ['acme/shop'],
    );
    try {
      space.engine.driftScan();
      assert.ok(
        !space.all().some((f) => f.reference.raw.includes(token) || f.evidence.detail.includes(token)),
        JSON.stringify(space.all()),
      );
    } finally {
      space.cleanup();
    }
  });
});

describe('drift: GitHub URLs', function () {
  it('to another repository are not references to the file of the same name here', () => {
    const space = driftSpace(
      {
        'docs/a.md':
          'Upstream: [their ' +
          'readme](https://github.com/other/project/blob/main/README.md); ' +
          'ours: ' +
          '[readme](https://github.com/acme/shop/blob/main/README.md).\n',
        'README.md': '# Shop\n',
      },
      ['acme/shop'],
    );
    try {
      space.engine.driftScan();
      assert.deepEqual(space.refs('docs/a.md', 'https://github.com/other/project/blob/main/README.md'), []);
      assert.equal(space.refs('docs/a.md', 'https://github.com/acme/shop/blob/main/README.md')[0]?.state, 'current');
    } finally {
      space.cleanup();
    }
  });

  it('to this repository on a branch whose name holds a slash resolve to the file', () => {
    const space = driftSpace(
      {
        'docs/a.md': 'See [the guide](https://github.com/acme/shop/blob/release/1.2/docs/guide.md#L1).\n',
        'docs/guide.md': '# Guide\n',
      },
      ['acme/shop'],
    );
    try {
      space.engine.driftScan();
      const ref = space.refs('docs/a.md', 'https://github.com/acme/shop/blob/release/1.2/docs/guide.md#L1')[0];
      assert.deepEqual([ref?.state, ref?.reference.target_path], ['current', 'docs/guide.md']);
    } finally {
      space.cleanup();
    }
  });
});

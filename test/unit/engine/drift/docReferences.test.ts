// References real docs make that drift now tracks (issue 31, point 6): images and other assets
// (markdown and HTML), URLs of the repository's own published docs site mapped back to their
// source, and files embedded by doc tools (mdox `sed -n 'A,Bp'`, embedmd) with their line ranges.
// Each: found at baseline, broken by an edit, reported, fixed by the offered update, gone again.

import { strict as assert } from 'node:assert';
import type { DriftFinding } from '../../../../src/engine';
import { relink } from '../../../../src/vscode/drift/relink';
import { driftSpace, type DriftSpace } from '../../../support/drift';

/** The line with the offered fix applied (asserting one is offered). */
function fixed(finding: DriftFinding, line: string): string {
  const fix = relink(finding, line);
  assert.ok(!('problem' in fix), JSON.stringify(fix));
  return line.slice(0, fix.start) + fix.text + line.slice(fix.end);
}

describe('drift: images and assets', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  const line = 'Flow: <img src="../img/flow.svg" width="300"> and ![arch](../img/arch.png).';

  it('an HTML <img> and a markdown image are watched; a moved one is fixed in place, a deleted one is gone', () => {
    s = driftSpace({
      'img/flow.svg': '<svg>flow</svg>',
      'img/arch.png': '\u0089PNG arch',
      'docs/guide.md': `# Guide\n${line}\n`,
    });
    s.engine.driftScan();
    assert.equal(s.refs('docs/guide.md', '../img/flow.svg')[0]?.state, 'current');
    assert.equal(s.refs('docs/guide.md', '../img/arch.png')[0]?.state, 'current');

    s.move('img/flow.svg', 'img/diagrams/flow.svg');
    s.remove('img/arch.png');
    s.engine.driftCheck(['img/flow.svg', 'img/diagrams/flow.svg', 'img/arch.png']);
    const [flow] = s.refs('docs/guide.md', '../img/flow.svg');
    assert.equal(flow.state, 'relocated');
    const after = fixed(flow, line);
    assert.equal(after, 'Flow: <img src="../img/diagrams/flow.svg" width="300"> and ![arch](../img/arch.png).');
    assert.equal(s.refs('docs/guide.md', '../img/arch.png')[0]?.state, 'gone');

    s.write('img/arch.png', '\u0089PNG arch');
    s.write('docs/guide.md', `# Guide\n${after}\n`);
    s.engine.driftCheck(['docs/guide.md', 'img/arch.png']);
    assert.equal(s.refs('docs/guide.md', '../img/diagrams/flow.svg')[0]?.state, 'current');
    assert.deepEqual(s.refs('docs/guide.md', '../img/flow.svg'), []);
  });
});

describe("drift: the repository's own docs site URLs", function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  it('MkDocs site_url: a page URL is its source; a renamed heading is fixed in the URL; a page gone is gone', () => {
    const readme = 'See [installing](https://docs.example.org/guide/setup/#install) first.';
    s = driftSpace({
      'mkdocs.yml': 'site_name: Example\nsite_url: https://docs.example.org/\n',
      'docs/guide/setup.md': '# Setup\n## Install\nRun the installer.\n## Use\nRun it.\n',
      'README.md': `${readme}\n`,
    });
    s.engine.driftScan();
    const url = 'https://docs.example.org/guide/setup/#install';
    const [found] = s.refs('README.md', url);
    assert.equal(found.state, 'current');
    assert.equal(found.reference.target_path, 'docs/guide/setup.md');

    s.write('docs/guide/setup.md', '# Setup\n## Install it\nRun the installer.\n## Use\nRun it.\n');
    s.engine.driftCheck(['docs/guide/setup.md']);
    const [renamed] = s.refs('README.md', url);
    assert.equal(renamed.state, 'relocated');
    assert.equal(fixed(renamed, readme), 'See [installing](https://docs.example.org/guide/setup/#install-it) first.');

    s.remove('docs/guide/setup.md');
    s.engine.driftCheck(['docs/guide/setup.md']);
    assert.equal(s.refs('README.md', url)[0].state, 'gone');
  });

  it('Hugo baseURL: a versioned page written as its source is its docs/ page; a page Hugo may make is none', () => {
    s = driftSpace({
      'website/hugo.toml': 'baseURL = "https://example.io/"\ntitle = "x"\n',
      'website/content/_index.md': '# Home\n',
      'docs/operating/backup.md': '# Backup\n## Restore\nFrom the bucket.\n',
      'README.md':
        'See https://example.io/tip/operating/backup.md/#restore and ' +
        '[compaction](https://example.io/tip/operating/compaction.md/).\n',
    });
    s.engine.driftScan();
    const [backup] = s.refs('README.md', 'https://example.io/tip/operating/backup.md/#restore');
    assert.equal(backup?.state, 'current');
    assert.equal(backup.reference.target_path, 'docs/operating/backup.md');
    // Hugo makes pages its sources do not show (taxonomies, lists): an unknown page is not called broken.
    assert.deepEqual(s.refs('README.md', 'https://example.io/tip/operating/compaction.md/'), []);
  });

  it('a docsify site at its GitHub Pages address: #/route is the page; a route with no page is broken', () => {
    s = driftSpace(
      {
        'docs/index.html': '<script>window.$docsify = { name: "x" }</script>',
        'docs/guide/setup.md': '# Setup\n',
        'README.md':
          '[Setup](https://acme.github.io/widgets/#/guide/setup), [Old](https://acme.github.io/widgets/#/old)\n',
      },
      ['acme/widgets'],
    );
    s.engine.driftScan();
    assert.equal(s.refs('README.md', 'https://acme.github.io/widgets/#/guide/setup')[0]?.state, 'current');
    const [old] = s.refs('README.md', 'https://acme.github.io/widgets/#/old');
    assert.equal(old?.state, 'broken');
    assert.match(old.evidence.detail, /docsify site/);
  });

  it('a URL of another site is no reference', () => {
    s = driftSpace({
      'mkdocs.yml': 'site_url: https://docs.example.org/\n',
      'docs/index.md': '# Home\n',
      'README.md': '[x](https://other.example.org/guide/setup/) [y](https://docs.example.org/missing/)\n',
    });
    s.engine.driftScan();
    assert.deepEqual(s.refs('README.md', 'https://other.example.org/guide/setup/'), []);
    assert.equal(s.refs('README.md', 'https://docs.example.org/missing/')[0]?.state, 'broken');
  });
});

describe('drift: files embedded by doc tools', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  const CODE = ['package main', '', 'func main() {', '\trun()', '}', ''].join('\n');

  it("mdox sed -n 'A,Bp': lines that shift are relocated, and the fix moves the range", () => {
    const directive = `<!--mdox-exec="sed -n '3,5p' cmd/main.go"-->`;
    s = driftSpace({ 'cmd/main.go': CODE, 'docs/run.md': `# Run\n${directive}\n` });
    s.engine.driftScan();
    const raw = "sed -n '3,5p' cmd/main.go";
    assert.equal(s.refs('docs/run.md', raw)[0]?.state, 'current');
    s.write('cmd/main.go', CODE.replace('package main\n', 'package main\n\nimport "os"\n'));
    s.engine.driftCheck(['cmd/main.go']);
    const [shifted] = s.refs('docs/run.md', raw);
    assert.equal(shifted.state, 'relocated');
    const after = fixed(shifted, directive);
    assert.equal(after, `<!--mdox-exec="sed -n '5,7p' cmd/main.go"-->`);
    s.write('docs/run.md', `# Run\n${after}\n`);
    s.engine.driftCheck(['docs/run.md']);
    assert.equal(s.refs('docs/run.md', "sed -n '5,7p' cmd/main.go")[0]?.state, 'current');
  });

  it('embedmd: a renamed file is relocated and the fix rewrites its path; a deleted one is gone', () => {
    const directive = '[embedmd]:# (../cmd/main.go go /func main/ /^}/)';
    s = driftSpace({ 'cmd/main.go': CODE, 'docs/run.md': `# Run\n\n${directive}\n` });
    s.engine.driftScan();
    const raw = '../cmd/main.go go /func main/ /^}/';
    assert.equal(s.refs('docs/run.md', raw)[0]?.state, 'current');
    s.move('cmd/main.go', 'cmd/app/main.go');
    s.engine.driftCheck(['cmd/main.go', 'cmd/app/main.go']);
    const [moved] = s.refs('docs/run.md', raw);
    assert.equal(moved.state, 'relocated');
    assert.equal(fixed(moved, directive), '[embedmd]:# (../cmd/app/main.go go /func main/ /^}/)');
    s.remove('cmd/app/main.go');
    s.engine.driftScan();
    assert.equal(s.refs('docs/run.md', raw)[0]?.state, 'gone');
  });
});

describe('drift: files a Hugo shortcode reads in', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  it('`{{< codeFromFile file="…" >}}` and `{{% readFile "…" %}}` resolve from the site and follow a rename', () => {
    const page = [
      '# Configuration',
      '{{< codeFromFile file="static/examples/config-with-mounts.yaml" lang="yaml" >}}',
      '{{% readFile "static/examples/ingress/usage.yaml" %}}',
      '{{% alert title="Note" color="primary" %}}Not a file.{{% /alert %}}',
      'Usage: `{{</* codeFromFile file="static/examples/escaped.yaml" */>}}`',
      '',
    ].join('\n');
    s = driftSpace({
      'site/config.toml': 'baseURL = "https://kind.example.org"\n',
      'site/content/docs/user/configuration.md': page,
      'site/static/examples/config-with-mounts.yaml': 'kind: Cluster\n',
      'site/static/examples/ingress/usage.yaml': 'kind: Pod\n',
    });
    s.engine.driftScan();
    const doc = 'site/content/docs/user/configuration.md';
    const mounts = s.refs(doc, 'static/examples/config-with-mounts.yaml')[0];
    assert.equal(mounts?.state, 'current');
    assert.equal(mounts.reference.target_path, 'site/static/examples/config-with-mounts.yaml');
    assert.equal(s.refs(doc, 'static/examples/ingress/usage.yaml')[0]?.state, 'current');
    assert.deepEqual(s.refs(doc, 'static/examples/escaped.yaml'), [], 'an escaped example is no embed');
    assert.equal(s.all().filter((f) => f.source.path === doc && f.reference.form === 'embed').length, 2);
    s.move('site/static/examples/config-with-mounts.yaml', 'site/static/examples/mounts.yaml');
    s.engine.driftCheck(['site/static/examples/config-with-mounts.yaml', 'site/static/examples/mounts.yaml']);
    const [moved] = s.refs(doc, 'static/examples/config-with-mounts.yaml');
    assert.equal(moved.state, 'relocated');
    assert.equal(
      fixed(moved, page.split('\n')[1]),
      '{{< codeFromFile file="static/examples/mounts.yaml" lang="yaml" >}}',
      'the fix keeps the path as the site writes it',
    );
    s.remove('site/static/examples/ingress/usage.yaml');
    s.engine.driftScan();
    assert.equal(s.refs(doc, 'static/examples/ingress/usage.yaml')[0]?.state, 'gone');
  });
});

describe('drift: paths with placeholders', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  it('`config/variables-<ENV>.tf` holds while one file matches; gone when none does; one env more is no drift', () => {
    s = driftSpace({
      'config/variables-dev.tf': 'variable "a" {}\n',
      'config/variables-prod.tf': 'variable "a" {}\n',
      'docs/deploy.md': '# Deploy\nSet the values in `config/variables-<ENV>.tf`, then run `make plan ENV=<env>`.\n',
    });
    s.engine.driftScan();
    const state = () => s.refs('docs/deploy.md', 'config/variables-<ENV>.tf')[0]?.state;
    assert.equal(state(), 'current');
    assert.equal(
      s.refs('docs/deploy.md', 'config/variables-<ENV>.tf')[0].reference.target_path,
      'config/variables-<ENV>.tf',
    );
    s.write('config/variables-test.tf', 'variable "a" {}\n');
    s.remove('config/variables-dev.tf');
    s.engine.driftCheck(['config/variables-test.tf', 'config/variables-dev.tf']);
    assert.equal(state(), 'current');
    s.move('config/variables-prod.tf', 'config/prod/variables.tf');
    s.move('config/variables-test.tf', 'config/test/variables.tf');
    s.engine.driftScan();
    assert.equal(state(), 'gone');
    s.move('config/prod/variables.tf', 'config/variables-prod.tf');
    s.engine.driftScan();
    assert.equal(state(), 'current');
  });
});

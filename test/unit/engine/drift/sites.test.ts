// Links resolve the way the repository's docs site resolves them (issue 17, point 3): the site
// root and page sources of the generator its configuration names, heading anchors as generators
// slug them, URLs of other repositories never resolved here, bare names that match several files
// ambiguous, and no references read from templates or from a changelog's old entries.

import { strict as assert } from 'node:assert';
import { driftSpace, type DriftSpace } from '../../../support/drift';

function states(space: DriftSpace, source: string): Record<string, string> {
  return Object.fromEntries(
    space
      .all()
      .filter((f) => f.source.path === source)
      .map((f) => [f.reference.raw, f.state]),
  );
}

describe('drift: links resolve the way the docs site does', () => {
  it('tech-docs: /x.html and folder links find source/**/*.html.md(.erb); generated pages are no finding', () => {
    const s = driftSpace({
      'config/tech-docs.yml': 'host: https://docs.example\n',
      'config.rb': 'data.repos.each { |r| proxy "/repos/#{r}.html", "repo.html" }\n',
      'source/manual/deploy.html.md':
        '---\ntitle: Deploy an app\n---\n\nSee ' +
        '[alerts](/manual/alerts.html#disk-full), [the ' +
        'app](/kubernetes/create-app/),' +
        ' [the title](/manual/alerts.html#alerts-runbook) and [repos](/repos/signon.html).\n',
      'source/manual/alerts.html.md.erb': '---\ntitle: Alerts runbook\n---\n\n## Disk full\n\nDo things.\n',
      'source/kubernetes/create-app/index.html.md': '# Create an app\n',
    });
    try {
      s.engine.driftScan();
      assert.deepEqual(states(s, 'source/manual/deploy.html.md'), {
        '/manual/alerts.html#disk-full': 'current',
        '/kubernetes/create-app/': 'current',
        '/manual/alerts.html#alerts-runbook': 'current',
      });
    } finally {
      s.cleanup();
    }
  });

  it(
    'MkDocs: anchors slugged with underscores, headings in block ' +
      'quotes and explicit ids resolve; a page of snippets is not ' +
      'judged',
    () => {
      const s = driftSpace({
        'mkdocs.yml': 'site_name: x\n',
        'docs/guide.md':
          'See [dir](config.md#custom_dir), [id](config.md#my-id), ' +
          '[inc](contributing.md#installing) and ' +
          '[gone](config.md#nowhere).\n',
        'docs/config.md': '# Config\n\n> #### custom_dir\n>\n> Text.\n\n## Something else {#my-id}\n',
        'docs/contributing.md': '--8<-- "CONTRIBUTING.md"\n',
        'CONTRIBUTING.md': '# Contributing\n## Installing\n',
      });
      try {
        s.engine.driftScan();
        const got = states(s, 'docs/guide.md');
        assert.equal(got['config.md#custom_dir'], 'current');
        assert.equal(got['config.md#my-id'], 'current');
        assert.equal(got['contributing.md#installing'], 'current');
        assert.equal(got['config.md#nowhere'], 'broken', 'a heading that is nowhere is still broken');
        const gone = s.all().find((f) => f.reference.raw === 'config.md#nowhere')!;
        assert.match(gone.evidence.detail, /has no heading #nowhere/, 'the reason names the heading, not the page');
      } finally {
        s.cleanup();
      }
    },
  );

  it('never resolves a URL of another repository here; one of this repository still counts', () => {
    const s = driftSpace(
      {
        'README.md':
          '# ' +
          'R\n[theirs](https://github.com/other/thing/blob/main/README.md#setup) ' +
          'and ' +
          '[ours](https://github.com/acme/shop/blob/main/docs/a.md#missing)\n',
        'docs/a.md': '# A\n',
      },
      ['acme/shop'],
    );
    try {
      s.engine.driftScan();
      assert.deepEqual(states(s, 'README.md'), {
        'https://github.com/acme/shop/blob/main/docs/a.md#missing': 'broken',
      });
    } finally {
      s.cleanup();
    }
    // Without any known remote, a URL whose path exists here counts only where it resolves.
    const t = driftSpace({ 'README.md': '# R\n[x](https://github.com/other/thing/blob/main/README.md#setup)\n' });
    try {
      t.engine.driftScan();
      assert.deepEqual(states(t, 'README.md'), {});
    } finally {
      t.cleanup();
    }
  });

  it('a bare name matching several files is ambiguous; templates and old changelog entries make no findings', () => {
    const s = driftSpace({
      'docs/guide.md': '# G\nEdit `main.html` to change it.\n',
      'themes/a/main.html': '<html></html>\n',
      'themes/b/main.html': '<html></html>\n',
      'docs/adr/template.md': '# [short title of solved problem]\n\nSee [the next one](yyyymmdd-xxx.md).\n',
      'CHANGELOG.md': '# Changelog\n## 1.0\n- Moved `docs/old/index.md` away. See [guide](docs/guide.md).\n',
    });
    try {
      s.engine.driftScan();
      assert.deepEqual(states(s, 'docs/guide.md'), { 'main.html': 'ambiguous' });
      assert.deepEqual(states(s, 'docs/adr/template.md'), {});
      assert.deepEqual(states(s, 'CHANGELOG.md'), { 'docs/guide.md': 'current' });
    } finally {
      s.cleanup();
    }
  });

  it(
    'a code-span mention of a path that is not here is another ' + "repository's unless written relative to the doc",
    () => {
      const s = driftSpace({
        'docs/rails.md':
          '# Rails\nEdit `config/locales/en.yml` and `docs/missing.md`; run `./b` and `./deploy.sh`;' +
          ' see [dead](gone.md) and [site](github.com/x/y).\n',
      });
      try {
        s.engine.driftScan();
        assert.deepEqual(states(s, 'docs/rails.md'), { './deploy.sh': 'broken', 'gone.md': 'broken' });
      } finally {
        s.cleanup();
      }
    },
  );
});

describe('drift: repository URLs', () => {
  it(
    'a folder URL with an anchor is a heading of its README; a URL ' +
      'pinned to a commit names the past, not the tree',
    () => {
      const s = driftSpace(
        {
          'docs/a.md':
            '# A\n[s](https://github.com/acme/shop/tree/master/keps/123-x#proposal) and' +
            ' [old](https://github.com/acme/shop/blob/de235887a80555427314c7eb25c6214523d50cce/text/0000-gone.md)\n',
          'keps/123-x/README.md': '# KEP\n## Proposal\n',
        },
        ['acme/shop'],
      );
      try {
        s.engine.driftScan();
        assert.deepEqual(states(s, 'docs/a.md'), {
          'https://github.com/acme/shop/tree/master/keps/123-x#proposal': 'current',
        });
      } finally {
        s.cleanup();
      }
    },
  );
});

describe('drift: repository URLs whose path is gone', () => {
  it('does not shorten a gone path to a namesake at the root; a branch with a slash still resolves', () => {
    const s = driftSpace(
      {
        'CHANGELOG.md':
          '# Changelog\n- [example](https://github.com/acme/shop/blob/master/examples/fargate/main.tf)\n' +
          '- [docs](https://github.com/acme/shop/blob/release/1.2/docs/a.md)\n',
        'main.tf': 'terraform {}\n',
        'examples/other/main.tf': 'terraform {}\n',
        'docs/a.md': '# A\n',
      },
      ['acme/shop'],
    );
    try {
      s.engine.driftScan();
      const got = states(s, 'CHANGELOG.md');
      assert.equal(got['https://github.com/acme/shop/blob/master/examples/fargate/main.tf'], 'broken');
      assert.equal(got['https://github.com/acme/shop/blob/release/1.2/docs/a.md'], 'current');
    } finally {
      s.cleanup();
    }
  });
});

// False alarms and misses an audit found on four infrastructure repositories nobody tuned drift on
// (issue 17, points 3 and 4): each case is a small excerpt of the convention that tripped it,
// rewritten for the test (modernisation-platform, govuk-helm-charts, govuk-aws: MIT; the
// teacher-services-cloud shapes are written from scratch, that repository states no licence).

import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withDriftSpace, type DriftSpace } from '../../../support/drift';

function states(space: DriftSpace, source: string): Record<string, string> {
  return Object.fromEntries(
    space
      .all()
      .filter((f) => f.source.path === source)
      .map((f) => [f.reference.raw, f.state]),
  );
}

function detail(space: DriftSpace, source: string, raw: string): string {
  return space.refs(source, raw)[0]?.evidence.detail ?? '(no finding)';
}

const REPO = ['acme/platform'];
const URL = 'https://github.com/acme/platform/blob/main';

describe('drift on untuned repositories: secret-bearing files', () => {
  it('a link to a *.tfvars.json or .env is to a file that exists; its content is never read or hashed', () => {
    const secret = '{"client_secret": "s3cr3t-value-never-stored"}\n';
    withDriftSpace(
      {
        'cluster/config/test.tfvars.json': secret,
        'app/.env': 'TOKEN=abc-never-stored\n',
        'documentation/onboarding.md':
          `# Onboarding\nSee [test](${URL}/cluster/config/test.tfvars.json), ` +
          `[line 20](${URL}/cluster/config/test.tfvars.json#L20), [env](../app/.env) ` +
          'and [prod](../cluster/config/prod.tfvars).\n',
      },
      (s) => {
        s.engine.driftScan();
        assert.deepEqual(states(s, 'documentation/onboarding.md'), {
          [`${URL}/cluster/config/test.tfvars.json`]: 'current',
          [`${URL}/cluster/config/test.tfvars.json#L20`]: 'current',
          '../app/.env': 'current',
          '../cluster/config/prod.tfvars': 'broken',
        });
        const hash = createHash('sha256').update(secret).digest('hex');
        for (const raw of [`${URL}/cluster/config/test.tfvars.json`, `${URL}/cluster/config/test.tfvars.json#L20`]) {
          const [row] = s.rows('documentation/onboarding.md', raw);
          assert.match(row.fingerprint ?? '', /^stat:\d+:\d+$/, 'fingerprinted by size and time only');
          assert.ok(!row.fingerprint!.includes(hash));
        }
        s.reopen(); // closes the store, so every page is on disk
        const store = readFileSync(join(s.root, '..', 'lore.db'));
        assert.ok(!store.includes('s3cr3t-value-never-stored') && !store.includes('abc-never-stored'));
        assert.ok(!store.includes(hash), 'the content hash is not stored either');
      },
      REPO,
    );
  });
});

describe('drift on untuned repositories: heading anchors', () => {
  it('a heading that is (or holds) a Markdown link is slugged from the link text', () => {
    withDriftSpace(
      {
        'documentation/disaster-recovery.md':
          '# Disaster recovery\n- [One](#scenario-1-loss-of-database-server)\n- [Two](#scenario-2-loss-of-data)\n\n' +
          '### [Scenario 1: Loss of database server](https://example.org/runbook)\n\nText.\n\n' +
          '### Scenario 2: [Loss of data](https://example.org/data)\n\nText.\n\n' +
          '## `Future<Output = T>` in code stays as written\n',
        'documentation/testing.md':
          '# Testing\nSee [one](disaster-recovery.md#scenario-1-loss-of-database-server) and ' +
          '[code](disaster-recovery.md#futureoutput--t-in-code-stays-as-written).\n',
      },
      (s) => {
        s.engine.driftScan();
        assert.deepEqual(states(s, 'documentation/disaster-recovery.md'), {
          '#scenario-1-loss-of-database-server': 'current',
          '#scenario-2-loss-of-data': 'current',
        });
        assert.deepEqual(states(s, 'documentation/testing.md'), {
          'disaster-recovery.md#scenario-1-loss-of-database-server': 'current',
          'disaster-recovery.md#futureoutput--t-in-code-stays-as-written': 'current',
        });
      },
    );
  });

  it("tech-docs ids: an apostrophe is -39-, a repeat takes its parent's id, GitHub's -1 does not exist", () => {
    const page =
      "---\ntitle: Networking\n---\n\n## What we're trying to fix\n\nText.\n\n### What we decided\n\n" +
      '##### Transit Gateway\n\nOne.\n\n#### Transit Gateway\n\nTwo.\n\n## NACLs\n\n' +
      'See [fix](#what-we-39-re-trying-to-fix), [tgw](#what-we-decided-transit-gateway), ' +
      '[first](#transit-gateway) and [github](#transit-gateway-1).\n';
    withDriftSpace(
      {
        'config/tech-docs.yml': 'host: https://docs.example\n',
        'source/concepts/networking.html.md.erb': page,
        'source/runbooks/vpcs.html.md.erb':
          '# VPCs\nSee [tgw](../concepts/networking.html#what-we-decided-transit-gateway).\n',
        // The same page on GitHub (no tech-docs site): GitHub numbers the repeat.
        'docs/networking.md': page.replace('[github](#transit-gateway-1)', '[github](#transit-gateway-1) ok'),
      },
      (s) => {
        s.engine.driftScan();
        assert.deepEqual(states(s, 'source/concepts/networking.html.md.erb'), {
          '#what-we-39-re-trying-to-fix': 'current',
          '#what-we-decided-transit-gateway': 'current',
          '#transit-gateway': 'current',
          '#transit-gateway-1': 'broken',
        });
        assert.deepEqual(states(s, 'source/runbooks/vpcs.html.md.erb'), {
          '../concepts/networking.html#what-we-decided-transit-gateway': 'current',
        });
        assert.equal(states(s, 'docs/networking.md')['#transit-gateway-1'], 'current', 'GitHub does number it');
      },
    );
  });

  it('tech-docs (Redcarpet) reads `####Heading` with no space as a heading; GitHub does not (issue 31)', () => {
    const page = '# Alerts\n\n####High error rate\n\nPage the on-call.\n\nSee [it](#high-error-rate).\n';
    withDriftSpace(
      {
        'config/tech-docs.yml': 'host: https://docs.example\n',
        'source/manual/alerts.html.md': page,
        'docs/alerts.md': page,
      },
      (s) => {
        s.engine.driftScan();
        assert.deepEqual(states(s, 'source/manual/alerts.html.md'), { '#high-error-rate': 'current' });
        assert.deepEqual(states(s, 'docs/alerts.md'), { '#high-error-rate': 'broken' }, 'on GitHub it is a paragraph');
      },
    );
  });

  it('line anchors with columns are lines; a percent-encoded fragment is decoded before matching', () => {
    withDriftSpace(
      {
        'cluster/grafana.tf': 'a\nb\nc\nd\n',
        'documentation/redis.md': '# Redis\n\n##### 3️⃣ Migrate the data\n\nSteps.\n',
        'documentation/steps.md':
          `# Steps\n[lines](${URL}/cluster/grafana.tf#L2C1-L3C1), [past](${URL}/cluster/grafana.tf#L9C1-L10C1) ` +
          `and [step](${URL}/documentation/redis.md#3%EF%B8%8F%E2%83%A3-migrate-the-data).\n`,
      },
      (s) => {
        s.engine.driftScan();
        assert.deepEqual(states(s, 'documentation/steps.md'), {
          [`${URL}/cluster/grafana.tf#L2C1-L3C1`]: 'current',
          [`${URL}/cluster/grafana.tf#L9C1-L10C1`]: 'broken',
          [`${URL}/documentation/redis.md#3%EF%B8%8F%E2%83%A3-migrate-the-data`]: 'current',
        });
        assert.match(detail(s, 'documentation/steps.md', `${URL}/cluster/grafana.tf#L9C1-L10C1`), /has no lines/);
      },
      REPO,
    );
  });
});

describe('drift on untuned repositories: commands', () => {
  it('`./x.sh` not beside the page is the one file at that tail; several are ambiguous, none broken', () => {
    withDriftSpace(
      {
        'source/runbooks/deleting.html.md.erb':
          '# Deleting\nBe in `scripts/account-deletion`, then run `./delete-accounts.sh`, ' +
          '`./setup.sh` and `./gone.sh`.\n',
        'scripts/account-deletion/delete-accounts.sh': '#!/bin/sh\n',
        'scripts/a/setup.sh': '#!/bin/sh\n',
        'scripts/b/setup.sh': '#!/bin/sh\n',
      },
      (s) => {
        s.engine.driftScan();
        assert.deepEqual(states(s, 'source/runbooks/deleting.html.md.erb'), {
          'scripts/account-deletion': 'current',
          './delete-accounts.sh': 'current',
          './setup.sh': 'ambiguous',
          './gone.sh': 'broken',
        });
        assert.equal(
          s.refs('source/runbooks/deleting.html.md.erb', './delete-accounts.sh')[0].reference.target_path,
          'scripts/account-deletion/delete-accounts.sh',
        );
      },
    );
  });

  it("argparse's automatic --help and -h are defined; a flag the script lacks is still broken", () => {
    withDriftSpace(
      {
        'bin/manage/README.md':
          '# Manage\nRun `./manage-yq.py --help`, `./manage-yq.py -help` or `./manage-yq.py --nope`.\n',
        'bin/manage/manage-yq.py':
          'import argparse\nparser = argparse.ArgumentParser()\nparser.add_argument("--apps")\nparser.parse_args()\n',
      },
      (s) => {
        s.engine.driftScan();
        const got = states(s, 'bin/manage/README.md');
        assert.equal(got['--help'], undefined);
        assert.equal(got['-help'], undefined);
        assert.equal(got['--nope'], 'broken');
      },
    );
  });
});

describe('drift on untuned repositories: page links in a docs site', () => {
  it('tech-docs with no generated pages: a page link with no source is broken', () => {
    withDriftSpace(
      {
        'config/tech-docs.yml': 'host: https://docs.example\n',
        'source/index.html.md.erb':
          '# Home\n- [here](runbooks/here.html)\n- [gone](runbooks/oracle-license-discovery.html)\n' +
          '- [typo](runbooks/here..html)\n- [picture](images/x.png)\n- [css](/stylesheets/site.css)\n',
        'source/runbooks/here.html.md.erb': '# Here\n![diagram](../images/x.png)\n',
        'source/images/x.png': 'png',
        'source/stylesheets/site.css.scss': 'body {}\n',
      },
      (s) => {
        s.engine.driftScan();
        assert.deepEqual(states(s, 'source/index.html.md.erb'), {
          'runbooks/here.html': 'current',
          'runbooks/oracle-license-discovery.html': 'broken',
          'runbooks/here..html': 'broken',
          'images/x.png': 'current',
        });
        assert.deepEqual(states(s, 'source/runbooks/here.html.md.erb'), { '../images/x.png': 'current' });
      },
    );
  });

  it('pages a proxy or a redirect makes are no finding; a proxy built in code makes every page unknown', () => {
    const files = {
      'config/tech-docs.yml': 'host: https://docs.example\nredirects:\n  /old/page.html: /new.html\n',
      'config.rb': 'data.repos.each do |r|\n  proxy "/repos/#{r.name}.html", "templates/repo.html"\nend\n',
      'source/index.html.md':
        '# Home\n[repo](/repos/signon.html), [old](old/page.html), [search](/search/index.html), [gone](gone.html)\n',
    };
    withDriftSpace(files, (s) => {
      s.engine.driftScan();
      assert.deepEqual(states(s, 'source/index.html.md'), { 'gone.html': 'broken' });
    });
    withDriftSpace({ ...files, 'config.rb': 'resources.each { |r| proxy r[:path], r[:template] }\n' }, (t) => {
      t.engine.driftScan();
      assert.deepEqual(states(t, 'source/index.html.md'), {});
    });
  });
});

describe('drift on untuned repositories: documents and reasons', () => {
  it('a README about a folder of templates is read; a skeleton is not', () => {
    withDriftSpace(
      {
        'charts/es/externalsecrets-templates/README.md':
          '# ExternalSecrets templates\n\nRead in [../templates/es/](../templates/es/) via Helm.\n',
        'charts/es/templates/other.yaml': 'a: 1\n',
        'keps/0000-kep-template/README.md': '# KEP template\n\nSee [the KEP](../sig-x/0018-gone.md).\n',
        'docs/adr/template.md': '# [short title of solved problem]\n\nSee [the next one](yyyymmdd-xxx.md).\n',
      },
      (s) => {
        s.engine.driftScan();
        assert.deepEqual(states(s, 'charts/es/externalsecrets-templates/README.md'), { '../templates/es/': 'broken' });
        assert.deepEqual(states(s, 'keps/0000-kep-template/README.md'), {});
        assert.deepEqual(states(s, 'docs/adr/template.md'), {});
      },
    );
  });

  it('a quoted URL is a malformed link, never a path here; a root path written from a folder says so', () => {
    withDriftSpace(
      {
        'source/team/ways.html.md':
          '# Ways\nSee [runbooks]("https://github.com/other/repo/blob/main/README.md#-runbooks").\n',
        'documentation/set-up.md': '# Set up\nEdit [variables](cluster/variables.tf).\n',
        'cluster/variables.tf': 'variable "x" {}\n',
      },
      (s) => {
        s.engine.driftScan();
        const raw = '"https://github.com/other/repo/blob/main/README.md#-runbooks"';
        assert.equal(states(s, 'source/team/ways.html.md')[raw], 'broken');
        assert.match(detail(s, 'source/team/ways.html.md', raw), /malformed link: .* is quoted/);
        assert.doesNotMatch(detail(s, 'source/team/ways.html.md', raw), /does not exist/);
        assert.match(
          detail(s, 'documentation/set-up.md', 'cluster/variables.tf'),
          /does not exist relative to documentation\/ \(the repository has \/cluster\/variables\.tf\)/,
        );
      },
    );
  });
});

describe('drift on untuned repositories: MkDocs pages', () => {
  it('a page link with no source is broken unless a redirect makes it; an unknown plugin makes pages unknown', () => {
    const config =
      'site_name: x\nplugins:\n  - search\n  - redirects:\n      redirect_maps:\n' +
      '        user-guide/plugins.md: dev-guide/plugins.md\n';
    const files = {
      'mkdocs.yml': config,
      'docs/index.md': '# Home\n[plugins](user-guide/plugins/), [dev](dev-guide/plugins/) and [gone](gone/)\n',
      'docs/dev-guide/plugins.md': '# Plugins\n',
    };
    withDriftSpace(files, (s) => {
      s.engine.driftScan();
      assert.deepEqual(states(s, 'docs/index.md'), { 'dev-guide/plugins/': 'current', 'gone/': 'broken' });
    });
    withDriftSpace({ ...files, 'mkdocs.yml': `${config}  - gen-files:\n      scripts: [gen.py]\n` }, (t) => {
      t.engine.driftScan();
      assert.deepEqual(states(t, 'docs/index.md'), { 'dev-guide/plugins/': 'current' });
    });
  });
});

describe('drift on untuned repositories: MkDocs plugin options', () => {
  it("a known plugin's own list of options is not read as plugins", () => {
    withDriftSpace(
      {
        'mkdocs.yml': 'site_name: x\nplugins:\n  - search:\n      lang:\n        - en\n  - awesome-pages\n',
        'docs/index.md': '# Home\n[gone](gone/)\n',
      },
      (s) => {
        s.engine.driftScan();
        assert.deepEqual(states(s, 'docs/index.md'), { 'gone/': 'broken' });
      },
    );
  });
});

// Classification by content across conventions nobody tuned on (issue 17): each case is a short
// excerpt written in the shape of a real convention (KEP README, Rust RFC, root-level Ansible
// role, chart-testing values, issue forms, ADR/KEP templates, HCL tool config, release-note
// fragments). Written for the test, not copied from the repositories.

import { strict as assert } from 'node:assert';
import { classify } from '../../../../src/engine';

const chart = { chartRoots: new Set(['charts/exporter']) };

describe('classify: conventions beyond the tuning corpus', () => {
  it('a KEP README with the proposal sections is an rfc, an ordinary README stays a readme', () => {
    const kep =
      '# KEP-1234: Node things\n## Release Signoff Checklist\n## ' +
      'Summary\n## Motivation\n### Goals\n### Non-Goals\n## ' +
      'Proposal\n## Design Details\n### Test Plan\n## Drawbacks\n## ' +
      'Alternatives\n';
    assert.equal(classify('keps/sig-node/1234-node-things/README.md', kep), 'rfc');
    assert.equal(
      classify(
        'charts/exporter/README.md',
        '# Exporter\n## Usage\n## Install Chart\n## Uninstall Chart\n## Configuration\n',
      ),
      'readme',
    );
  });

  it('templates are other: ADR, KEP and issue templates, issue forms; the issue-chooser config is config', () => {
    assert.equal(
      classify(
        'docs/decisions/adr-template.md',
        '# {short title of solved problem}\n## Context and Problem Statement\n## Decision Outcome\n',
      ),
      'other',
    );
    assert.equal(
      classify(
        'src/template.md',
        '# NUMBER. TITLE\n\nDate: DATE\n\n## Status\n\nSTATUS\n\n## Context\n\n## Decision\n\n## Consequences\n',
      ),
      'other',
    );
    assert.equal(
      classify('keps/NNNN-kep-template/kep.yaml', 'title: KEP Template\nkep-number: NNNN\nstatus: provisional\n'),
      'other',
    );
    assert.equal(
      classify(
        '.github/ISSUE_TEMPLATE/bug.md',
        '---\nname: Bug Report\n---\n# Bug Report\n## Description\n## Steps to Reproduce\n',
      ),
      'other',
    );
    assert.equal(
      classify('.github/ISSUE_TEMPLATE/bug_report.yml', 'name: Bug report\nbody:\n  - type: textarea\n'),
      'other',
    );
    assert.equal(classify('.github/ISSUE_TEMPLATE/config.yml', 'blank_issues_enabled: false\n'), 'config');
    assert.equal(classify('.github/PULL_REQUEST_TEMPLATE.md', '## What changed\n## Checklist\n- [ ] tests\n'), 'other');
  });

  it('an Ansible role laid out at the repository root is ansible, file by file', () => {
    assert.equal(
      classify(
        'tasks/main.yml',
        '---\n- name: Install Docker packages.\n  package:\n    name: "{{ ' +
          'docker_packages }}"\n  notify: restart docker\n',
      ),
      'ansible',
    );
    assert.equal(classify('defaults/main.yml', '---\ndocker_edition: ce\ndocker_service_state: started\n'), 'ansible');
    assert.equal(classify('vars/Debian.yml', '---\ndocker_obsolete_packages:\n  - docker.io\n'), 'ansible');
    assert.equal(classify('meta/main.yml', '---\ndependencies: []\ngalaxy_info:\n  role_name: docker\n'), 'ansible');
    assert.equal(
      classify(
        'provisioning/docker.yml',
        '---\n- name: Build images.\n  docker_image:\n    name: app\n  with_items: []\n',
      ),
      'ansible',
    );
    assert.equal(classify('requirements.yml', '---\nroles:\n  - name: geerlingguy.git\n'), 'ansible');
    assert.equal(classify('inventory', '[app]\n192.168.60.4\n\n[db]\n192.168.60.6\n'), 'ansible');
    assert.equal(classify('hosts.ini', '[multi:vars]\nansible_user=vagrant\n'), 'ansible');
    // A plain config file of the same shape elsewhere is not Ansible.
    assert.equal(classify('.github/dependabot.yml', 'version: 2\nupdates: []\n'), 'config');
  });

  it('values files of a chart are helm wherever they sit in it; a helm-unittest suite is config', () => {
    assert.equal(classify('charts/exporter/ci/ci-values.yaml', 'replicaCount: 2\n', chart), 'helm');
    assert.equal(classify('charts/exporter/values.schema.json', '{"type": "object"}', chart), 'helm');
    assert.equal(
      classify('charts/exporter/unittests/a_test.yaml', 'suite: test\ntemplates: [a.yaml]\ntests: []\n', chart),
      'config',
    );
  });

  it("a file's chart is found from its own folders, the repository's chart roots never walked", () => {
    // A repository with a chart per service: walking every root for every YAML file made the index quadratic.
    class Unwalkable extends Set<string> {
      override [Symbol.iterator](): SetIterator<string> {
        throw new Error('the chart roots were walked');
      }
      override forEach(): void {
        throw new Error('the chart roots were walked');
      }
    }
    const many = { chartRoots: new Unwalkable(['charts/api', 'charts/exporter', 'deploy/charts/worker']) };
    assert.equal(classify('charts/exporter/ci/ci-values.yaml', 'replicaCount: 2\n', many), 'helm');
    assert.equal(classify('deploy/charts/worker/files/extra.yaml', 'replicaCount: 2\n', many), 'helm');
    assert.notEqual(classify('charts/exporter-two/ci/ci-values.yaml', 'replicaCount: 2\n', many), 'helm');
    assert.equal(classify('x.yaml', 'replicaCount: 2\n', { chartRoots: new Unwalkable(['']) }), 'helm');
  });

  it('HCL is terraform only with Terraform blocks: .tflint.hcl and Packer files are config', () => {
    assert.equal(classify('.tflint.hcl', 'plugin "aws" {\n  enabled = true\n}\n'), 'config');
    assert.equal(classify('ami/ubuntu.pkr.hcl', 'source "amazon-ebs" "ubuntu" {\n}\nbuild {\n}\n'), 'config');
    assert.equal(
      classify('live/prod/terragrunt.hcl', 'include {\n  path = find_in_parent_folders()\n}\n'),
      'terraform',
    );
  });

  it('release-note fragments and release-notes pages are changelogs', () => {
    assert.equal(
      classify(
        'releasenotes/notes/fix-1.yaml',
        'apiVersion: release-notes/v2\nkind: bug-fix\narea: traffic-management\nreleaseNotes:\n- Fixed a thing.\n',
      ),
      'changelog',
    );
    assert.equal(
      classify('docs/about/release-notes.md', '# Release Notes\n## Version 1.6.1\n### Fixed\n'),
      'changelog',
    );
  });

  it('Jinja templates take the kind of what they render; .mk and .proto are code', () => {
    assert.equal(classify('www/index.py.j2', 'print("{{ host }}")\n'), 'code');
    assert.equal(classify('templates/vhost.conf.j2', '<VirtualHost *:80>\n</VirtualHost>\n'), 'config');
    assert.equal(classify('common/Makefile.common.mk', 'lint:\n\t@echo\n'), 'code');
    assert.equal(classify('api/workload.proto', 'syntax = "proto3";\n'), 'code');
  });
});

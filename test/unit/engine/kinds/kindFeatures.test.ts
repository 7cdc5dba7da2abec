// The kind model's features (kindFeatures.ts, kindConventions.ts): what a reader would point at —
// the proposal's sections, a status line, numbered steps and shell blocks, front matter, a
// generated reference block — and the repository's conventions: a folder of numbered files, the docs
// site's navigation. Reading is capped, so a hostile file costs no more than its first 16 KiB.

import { strict as assert } from 'node:assert';
import { folderConventionsOf } from '../../../../src/engine/indexing/kindConventions';
import { kindFeatures, READ_LIMIT, tokens } from '../../../../src/engine/indexing/kindFeatures';

const features = (path: string, text: string, paths?: string[], nav?: Array<{ path: string; text: string }>) =>
  kindFeatures({ path, text, conventions: paths ? folderConventionsOf(paths, nav) : undefined });

describe('kind features', () => {
  it('names the sections of a proposal, and counts them as one family', () => {
    const f = features(
      'keps/sig-node/1234-things/README.md',
      '# KEP-1234: Things\n## Summary\n## Motivation\n### Goals\n### Non-Goals\n## Proposal\n## Alternatives\n',
    );
    for (const name of ['sec:motivation', 'sec:goals', 'sec:alternatives', 'sec:design', 'name:readme', 'dir:keps'])
      assert.ok(f.has(name), name);
    assert.equal(f.get('family:proposal'), 2);
    assert.ok(f.has('title:kep'));
    assert.ok(!f.has('sec:timeline'));
  });

  it('reads a runbook’s structure: numbered steps, shell blocks, commands, an alert section', () => {
    const f = features(
      'docs/alerts/disk-full.md',
      '# Disk full\n## Symptoms\nThe alert fires.\n## Steps\n1. Check the volume\n2. Delete old logs\n' +
        '```bash\nkubectl exec pod -- df -h\n```\n',
    );
    assert.ok(f.has('sec:alert') && f.has('sec:steps'));
    assert.ok(f.get('body:numbered')! > 0 && f.get('body:shell_blocks')! > 0 && f.get('body:commands')! > 0);
    assert.ok(f.get('body:imperatives')! > 0);
  });

  it('reads front matter keys and the values that name a purpose, a status line, dates, a terraform-docs block', () => {
    const f = features(
      'docs/x.md',
      '---\ntitle: Use queues\nlayout: decision\nstatus: accepted\n---\n# Use queues\n\nStatus: Accepted\n\n' +
        'Decided on 2024-03-01.\n\n<!-- BEGIN_TF_DOCS -->\n| Name | Description |\n|---|---|\n',
    );
    for (const name of ['fmkey:layout', 'fm:layout=decision', 'fm:status=accepted', 'title:queues', 'status:accepted'])
      assert.ok(f.has(name), name);
    assert.ok(f.has('body:status_line') && f.has('body:generated_reference') && f.get('body:dates')! > 0);
    assert.ok(f.get('body:tables')! > 0);
  });

  it('reads reStructuredText headings (underlined titles)', () => {
    const f = features('specs/x.rst', 'Use queues\n==========\n\nProblem description\n-------------------\n\nText.\n');
    assert.ok(f.has('title:queues') && f.has('sec:context'));
  });

  it("weighs the folder's siblings: a folder of numbered pages, a README beside its index page", () => {
    const paths = ['docs/adr/0001-a.md', 'docs/adr/0002-b.md', 'docs/adr/0003-c.md', 'docs/adr/README.md'];
    const f = features('docs/adr/0002-b.md', '# B\n\nText.\n', paths);
    assert.equal(f.get('sib:numbered_share'), 0.75);
    assert.equal(f.get('sib:prose_share'), 1);
    assert.ok(f.has('name#numbered'));
    const twin = ['guides/a/README.md', 'guides/a/index.md'];
    assert.ok(features('guides/a/README.md', '# A\n', twin).has('sib:page_readme'));
    assert.ok(!features('guides/a/README.md', '# A\n', [...twin, 'guides/a/more.md']).has('sib:page_readme'));
    // A page of its own in a folder-per-page site; a README that introduces a folder of files is not.
    assert.ok(features('docs/what-is-x/index.md', '# X\n', ['docs/what-is-x/index.md']).has('sib:lone_landing'));
    assert.ok(!features('docs/adr/README.md', '# ADRs\n', paths).has('sib:lone_landing'));
  });

  it("takes the docs site's navigation: mkdocs nav sections, SUMMARY.md and _sidebar.md parents", () => {
    const mkdocs = 'site_name: x\nnav:\n  - Home: index.md\n  - Runbooks:\n      - Disk full: ops/disk.md\n';
    const paths = ['mkdocs.yml', 'docs/index.md', 'docs/ops/disk.md'];
    assert.ok(
      features('docs/ops/disk.md', '# Disk\n', paths, [{ path: 'mkdocs.yml', text: mkdocs }]).has('nav:runbooks'),
    );
    const summary = '# Summary\n\n- [Operations](ops/README.md)\n  - [Restore](ops/restore.md)\n';
    const f = features(
      'book/ops/restore.md',
      '# R\n',
      ['book/SUMMARY.md'],
      [{ path: 'book/SUMMARY.md', text: summary }],
    );
    assert.ok(f.has('nav:operations') && f.has('nav:summary'));
  });

  it('reads an incident write-up: a dated title, timeline entries, past tense, the incident sections', () => {
    const f = features(
      'docs/incidents/queue.md',
      '# Job queue outage, 1 March 2025\n\n## Timeline\n\n- 10:02 primary failover\n- **10:40** workers restarted\n' +
        '| 11:05 | all clear |\n\n## What went well\n\nThe alert fired.\n\n## Detection\n\nWe noticed it.\n' +
        '## Contributing factors\n\nNone.\n',
    );
    assert.ok(f.has('title#dated'));
    for (const name of ['sec:timeline', 'sec:lessons', 'sec:detection', 'sec:contributing'])
      assert.ok(f.has(name), name);
    assert.equal(f.get('family:incident'), 2);
    assert.ok(f.get('body:timeline_entries')! > 0.7, 'three lines open with a time of day');
    assert.ok(f.get('body:past_tense_share')! >= 0.5);
    for (const title of ['2025-03-01: queue outage', 'Outage on March 1st, 2025', 'Outage 2025/3/1'])
      assert.ok(features('x.md', `# ${title}\n`).has('title#dated'), title);
    const present = features('docs/guide.md', '# Queues\n\nThe queue runs jobs at 10:00 each day.\n');
    assert.ok(!present.has('title#dated') && !present.get('body:timeline_entries'));
    assert.equal(present.get('body:past_tense_share'), 0);
  });

  it('counts release headings (a changelog) and numbered titles (a record)', () => {
    const log = features('docs/log.md', '# Log\n## [1.2.0] - 2024-01-02\n## v1.1\n## Version 1.0\n## Unreleased\n');
    assert.ok(log.get('body:version_headings')! > 1 && log.has('body:version_heading_share') && log.has('sec:version'));
    assert.ok(!features('docs/x.md', '# X\n## Usage\n## Install\n').get('body:version_headings'));
    for (const title of ['2. Use X', 'ADR-0002: Use X', 'KEP 1234 - Things'])
      assert.ok(features('x.md', `# ${title}\n`).has('title#numbered'), title);
    assert.ok(!features('x.md', '# Use X\n').has('title#numbered'));
  });

  it("names a folder-per-page site's page by its folder", () => {
    const f = features('docs/how-to-start/index.md', '# Start\n', ['docs/how-to-start/index.md']);
    assert.ok(f.has('name:start') && f.has('sib:lone_landing'));
  });

  it('folds numbers and drops stop words from tokens', () => {
    assert.deepEqual(tokens('How to Restore the DB-2024 backup of v2'), ['restore', 'db', '#', 'backup', 'v#']);
  });

  it('reads only the first 16 KiB: a hostile file gives the features of its head', () => {
    const head = '# Title\n' + '#'.repeat(3000) + '\n' + ' '.repeat(4000) + '\n' + '[' + '('.repeat(3000);
    const hostile = head + '\n' + '|\n* **'.repeat(2_000_000);
    const capped = hostile.slice(0, READ_LIMIT);
    assert.deepEqual([...features('docs/x.md', hostile)], [...features('docs/x.md', capped)]);
    const lines = features('docs/x.md', '\n'.repeat(5_000_000) + 'x');
    assert.ok(lines.has('body:empty'));
  });
});

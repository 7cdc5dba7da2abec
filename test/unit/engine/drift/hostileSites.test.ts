// Drift on hostile pages and site configurations: what a repository can hold never makes a check
// take time that grows faster than its input, nor throw: a heading line of 200,000 brackets, a
// tech-docs page of thousands of identical headings, an mkdocs.yml of 170,000 list items under its
// plugins.
// (Each of these ran for minutes, or overflowed the stack, before; the assertions are the answers.)

import { strict as assert } from 'node:assert';
import { TechDocsIds } from '../../../../src/engine/drift/target';
import { headingSlug } from '../../../../src/engine/text/slug';
import { withDriftSpace } from '../../../support/drift';

describe('drift on hostile pages and site configurations', () => {
  it('slugs a heading line of 200,000 brackets as written (no rendering pass per bracket)', () => {
    const heading = '['.repeat(100_000) + '<a'.repeat(50_000);
    assert.ok(
      headingSlug(heading) === 'a'.repeat(50_000),
      'slugged as written: the brackets dropped, the letters kept',
    );
    assert.equal(
      headingSlug('[Loss of data](https://example.com/x)'),
      'loss-of-data',
      'a normal heading still renders',
    );
  });

  it("numbers 5,000 identical tech-docs headings as the site does, each under its parent's id", () => {
    const ids = new TechDocsIds();
    const got: string[] = [ids.next('Guide', 1)];
    for (let i = 0; i < 5_000; i++) got.push(ids.next('Example', 2));
    assert.deepEqual(got.slice(0, 4), ['guide', 'example', 'guide-example', 'guide-example-2']);
    assert.equal(got[5_000], 'guide-example-4999');
    assert.equal(new Set(got).size, got.length, 'every id is unique');
    // A repeat under a later section takes that section's id; a closed deeper section is not a parent.
    const more = new TechDocsIds();
    assert.deepEqual(
      ['A', 'x', 'B', 'x', 'C'].map((h, i) => more.next(h, [2, 3, 2, 3, 1][i])),
      ['a', 'x', 'b', 'b-x', 'c'],
    );
    assert.equal(more.next('x', 3), 'c-x', 'the closest heading above of a higher level: the h1');
  });

  it("reads an mkdocs.yml of 170,000 plugin options' list items without overflowing the stack", () => {
    // Under the 1 MiB a file is read to: one plugin, then a list of its options, one item a line.
    const config = `site_name: x\nplugins:\n\t- search:\n\t\t\tlang:\n${'\t\t- x\n'.repeat(170_000)}`;
    withDriftSpace({ 'mkdocs.yml': config, 'docs/index.md': '# Home\n[gone](gone/)\n' }, (s) => {
      s.engine.driftScan();
      const states = s.all().map((f) => `${f.reference.raw} ${f.state}`);
      assert.deepEqual(states, ['gone/ broken'], 'the site makes no such page: the link is broken');
    });
  });
});

describe('a site configuration changed while drift keeps its workspace', () => {
  it('a plugin added to mkdocs.yml is seen by the next check: a new page link is no longer called broken', () => {
    withDriftSpace(
      {
        'mkdocs.yml': 'site_name: x\nplugins:\n  - search\n',
        'docs/index.md': '# Home\n[gone](gone/)\n',
      },
      (s) => {
        s.engine.driftScan();
        s.engine.driftCheck(['docs/index.md']);
        assert.deepEqual(
          s.all().map((f) => `${f.reference.raw} ${f.state}`),
          ['gone/ broken'],
        );
        // A plugin that makes pages the configuration does not list (the blog's posts): then a doc names one.
        s.write('mkdocs.yml', 'site_name: x\nplugins:\n  - search\n  - blog\n');
        s.engine.driftCheck(['mkdocs.yml']);
        s.write('docs/index.md', '# Home\n[gone](gone/) and [the post](blog/2024/01/hello/)\n');
        s.engine.driftCheck(['docs/index.md']);
        const raws = s.all().map((f) => f.reference.raw);
        assert.ok(!raws.includes('blog/2024/01/hello/'), `the blog's page is not called broken: ${raws.join(', ')}`);
      },
    );
  });
});

// Headings as the site renders them (issue 31, point 4): each engine's ids — GitHub/Docusaurus,
// kramdown (Jekyll), Goldmark (Hugo), Python-Markdown (MkDocs) — for repeats, punctuation, accents
// and explicit `{#id}`s, chosen per page from the site that publishes it; and a renamed heading is
// followed to its new id, which the update fix writes into the link.

import { strict as assert } from 'node:assert';
import { newSlugger, type SlugRule } from '../../../../src/engine/drift/slugs';
import { relink } from '../../../../src/vscode/drift/relink';
import { driftSpace, type DriftSpace } from '../../../support/drift';

const ids = (rule: SlugRule, headings: string[]) => {
  const slugger = newSlugger(rule);
  return headings.map((h) => slugger.next(h, h));
};

const HEADINGS = ['Set up', 'Set up', "What's new?", 'Café & crème', '1. Install', '--flags--', 'snake_case name'];

describe('drift: heading ids by engine', () => {
  it('GitHub (and Docusaurus): -1 for a repeat, punctuation removed, accents and underscores kept', () => {
    assert.deepEqual(ids({ engine: 'github' }, HEADINGS), [
      'set-up',
      'set-up-1',
      'whats-new',
      'café--crème',
      '1-install',
      '--flags--',
      'snake_case-name',
    ]);
  });

  it('kramdown (Jekyll): leading non-letters dropped, ASCII only, -1 for a repeat', () => {
    assert.deepEqual(ids({ engine: 'kramdown' }, HEADINGS), [
      'set-up',
      'set-up-1',
      'whats-new',
      'caf--crme',
      'install',
      'flags--',
      'snakecase-name',
    ]);
    assert.deepEqual(ids({ engine: 'kramdown' }, ['123', '123']), ['section', 'section-1']);
  });

  it('Goldmark as Hugo sets it: letters kept, every space a dash; github-ascii drops accents', () => {
    assert.deepEqual(ids({ engine: 'goldmark' }, HEADINGS), [
      'set-up',
      'set-up-1',
      'whats-new',
      'café--crème',
      '1-install',
      '--flags--',
      'snake_case-name',
    ]);
    assert.deepEqual(ids({ engine: 'goldmark', ascii: true }, ['Café & crème', '???']), ['cafe--creme', 'heading']);
  });

  it('Python-Markdown (MkDocs): accents folded to ASCII, dashes and spaces collapsed, _1 for a repeat', () => {
    assert.deepEqual(ids({ engine: 'python-markdown' }, HEADINGS), [
      'set-up',
      'set-up_1',
      'whats-new',
      'cafe-creme',
      '1-install',
      '-flags-',
      'snake_case-name',
    ]);
    assert.deepEqual(ids({ engine: 'python-markdown', unicode: true }, ['Café & crème']), ['café-crème']);
    // A heading already ending `_1` pushes the repeat on: x, x_1, then the second x is x_2.
    assert.deepEqual(ids({ engine: 'python-markdown' }, ['x', 'x_1', 'x']), ['x', 'x_1', 'x_2']);
  });
});

describe('drift: headings as the site that publishes the page renders them', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  const PAGE = [
    '# Guide',
    '## Set up',
    'Once.',
    '## Set up',
    'Twice.',
    '## 2. Deploy',
    'Ship.',
    '## Old {#legacy}',
    'x.',
  ];
  const LINKS = (ids: string[]) => ids.map((id) => `- [x](guide.md#${id})`).join('\n');

  it('MkDocs: `_1` for a repeat is current; a GitHub-only `-2` is not a heading there', () => {
    s = driftSpace({
      'mkdocs.yml': 'site_name: x\n',
      'docs/guide.md': PAGE.join('\n'),
      'docs/index.md': LINKS(['set-up_1', '2-deploy', 'legacy', 'set-up-2']),
    });
    s.engine.driftScan();
    const state = (raw: string) => s.refs('docs/index.md', raw)[0]?.state;
    assert.equal(state('guide.md#set-up_1'), 'current');
    assert.equal(state('guide.md#2-deploy'), 'current');
    assert.equal(state('guide.md#legacy'), 'current');
    assert.equal(state('guide.md#set-up-2'), 'broken');
  });

  it('Jekyll (kramdown): `## 2. Deploy` is #deploy, which GitHub would not call it', () => {
    s = driftSpace({
      '_config.yml': 'title: x\n',
      'docs/guide.md': PAGE.join('\n'),
      'docs/index.md': LINKS(['deploy', 'set-up-1']),
    });
    s.engine.driftScan();
    assert.equal(s.refs('docs/index.md', 'guide.md#deploy')[0]?.state, 'current');
    assert.equal(s.refs('docs/index.md', 'guide.md#set-up-1')[0]?.state, 'current');
    s.cleanup();
    // Outside a site, GitHub's rule: `#deploy` names no heading.
    s = driftSpace({ 'docs/guide.md': PAGE.join('\n'), 'docs/index.md': LINKS(['deploy', 'set-up-1']) });
    s.engine.driftScan();
    assert.equal(s.refs('docs/index.md', 'guide.md#deploy')[0]?.state, 'broken');
  });

  it('a renamed heading is relocated to its new id, and the fix rewrites only the anchor', () => {
    s = driftSpace({
      'mkdocs.yml': 'site_name: x\n',
      'docs/guide.md': ['# Guide', '## Set up', 'Install the CLI.', 'Run it once.', '## Use', 'Run it.'].join('\n'),
      'docs/index.md': 'Read [the setup](guide.md#set-up) and [usage](#usage).\n\n## Usage\nSee above.\n',
    });
    s.engine.driftScan();
    assert.equal(s.refs('docs/index.md', 'guide.md#set-up')[0].state, 'current');
    s.write(
      'docs/guide.md',
      ['# Guide', '## Set up (Linux) {: .wide }', 'Install the CLI.', 'Run it once.', '## Use', 'Run it.'].join('\n'),
    );
    s.engine.driftCheck(['docs/guide.md']);
    const [finding] = s.refs('docs/index.md', 'guide.md#set-up');
    assert.equal(finding.state, 'relocated');
    assert.equal(finding.evidence.new_path, 'docs/guide.md#set-up-linux');
    const line = 'Read [the setup](guide.md#set-up) and [usage](#usage).';
    const fix = relink(finding, line);
    assert.ok(!('problem' in fix), JSON.stringify(fix));
    assert.equal(
      line.slice(0, fix.start) + fix.text + line.slice(fix.end),
      'Read [the setup](guide.md#set-up-linux) and [usage](#usage).',
    );
  });

  it('an in-page anchor follows its renamed heading; a section edited as well as renamed is gone', () => {
    const doc = (heading: string, body: string) => `See [usage](#usage).\n\n## ${heading}\n${body}\n`;
    s = driftSpace({ 'docs/a.md': doc('Usage', 'Run it.') });
    s.engine.driftScan();
    s.write('docs/a.md', doc('How to use it', 'Run it.'));
    s.engine.driftCheck(['docs/a.md']);
    const [moved] = s.refs('docs/a.md', '#usage');
    assert.equal(moved.state, 'relocated');
    const fix = relink(moved, 'See [usage](#usage).');
    assert.ok(!('problem' in fix));
    assert.equal(fix.text, '#how-to-use-it');
    s.write('docs/a.md', doc('Usage', 'Run it.'));
    s.engine.driftCheck(['docs/a.md']);
    s.write('docs/a.md', doc('Usage now', 'Run it twice.'));
    s.engine.driftCheck(['docs/a.md']);
    assert.equal(s.refs('docs/a.md', '#usage')[0].state, 'gone');
  });
});

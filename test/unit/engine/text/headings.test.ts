import { strict as assert } from 'node:assert';
import { chunkDocument, cleanMarkup, documentTitle } from '../../../../src/engine/indexing/chunk';
import { classify } from '../../../../src/engine/indexing/classify';
import { atxHeading } from '../../../../src/engine/text/headings';

describe('markdown headings and markup, read in linear time', () => {
  it('reads ATX headings as CommonMark does: level, text, optional closing run', () => {
    assert.deepEqual(atxHeading('## Decision ##'), { level: 2, text: 'Decision' });
    assert.deepEqual(atxHeading('#\tTabbed   '), { level: 1, text: 'Tabbed' });
    assert.deepEqual(atxHeading('# Use C#'), { level: 1, text: 'Use C#' });
    assert.equal(atxHeading('#hashtag'), null);
    assert.equal(atxHeading('####### seven'), null);
    assert.equal(atxHeading('#   '), null);
  });

  it('chunks, titles and classifies a heading line of many spaces (cubic for the old pattern)', () => {
    // 200,000 spaces: the pattern this replaces needed 24 s for 2,000.
    const text = `# Runbook${' '.repeat(200_000)}restart\n\n## Steps\n\n1. drain\n`;
    const title = documentTitle('docs/x.md', text);
    assert.ok(title.startsWith('Runbook') && title.length === 200, `cut at 200 characters, got ${title.length}`);
    const headings = chunkDocument('runbook', text).map((c) => (c.heading.length > 100 ? 'long' : c.heading));
    assert.deepEqual(headings, ['long', 'long']);
    assert.ok(classify('docs/x.md', text, { chartRoots: new Set() }));
  });

  it('strips ERB and HTML comments, and keeps the rest when one is never closed', () => {
    assert.equal(cleanMarkup('a <% x %> b <!-- c\nd --> e'), 'a   b \n e');
    const unclosed = `${'<%'.repeat(50_000)} tail`;
    assert.equal(cleanMarkup(unclosed), unclosed);
  });
});

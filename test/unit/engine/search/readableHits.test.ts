// Readable document hits: a heading path without empty segments (a template's heading falls back
// to the front-matter title), a snippet from the text that matched (not the heading repeated, not
// the front matter), and a line range that points at that text.

import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chunkDocument } from '../../../../src/engine/indexing/chunk';
import type { DocHit } from '../../../../src/engine';
import { WorkspaceFileSource } from '../../../../src/host/fileSource';
import { openTestStore, type TestStore } from '../../../support/store';

const TEMPLATE_PAGE = [
  '---',
  'title: Rotating the signing keys',
  'owner: platform',
  '---',
  '',
  '# <%= current_page.data.title %>',
  '',
  '## <%= partial "intro" %>',
  '',
  '### Before you start',
  '',
  'Check that the new signing key is published in the JWKS endpoint for at least a day.',
  '',
].join('\n');

const INCIDENT = [
  '---',
  'title: "Incident: DNS resolution failures in the payments cluster"',
  'date: 2024-03-02',
  'severity: 2',
  'tags: [dns, payments]',
  '---',
  '',
  '# Incident: DNS resolution failures in the payments cluster',
  '',
  '## Summary',
  '',
  'For forty minutes the payments pods could not resolve the ledger service.',
  'CoreDNS was throttled after its memory limit was lowered in the previous release.',
  '',
  '## Timeline',
  '',
  '- 10:02 alerts fire for ledger timeouts',
  '- 10:40 CoreDNS memory limit restored',
  '',
].join('\n');

const MOVE = [
  '# Office move',
  '',
  'The travaux schedule for the second floor is kept on the facilities wiki page, updated weekly.',
  '',
  'Le café déménage au rez-de-chaussée le lundi, et la cuisine du deuxième étage ferme ce jour-là.',
  '',
].join('\n');

describe('readable document hits', () => {
  let s: TestStore;
  before(async () => {
    s = openTestStore();
    const root = join(s.dir, 'repo');
    mkdirSync(join(root, 'docs', 'incidents'), { recursive: true });
    writeFileSync(join(root, 'docs', 'keys.md'), TEMPLATE_PAGE);
    writeFileSync(join(root, 'docs', 'incidents', '2024-03-02-dns.md'), INCIDENT);
    writeFileSync(join(root, 'docs', 'move.md'), MOVE);
    const run = s.engine.index(new WorkspaceFileSource(root));
    while (!(await run.next()).done);
  });
  after(() => s.cleanup());

  it('gives a template heading the front-matter title and drops empty segments', () => {
    const chunks = chunkDocument('guide', TEMPLATE_PAGE);
    assert.deepEqual(
      chunks.map((c) => c.heading),
      ['Rotating the signing keys', 'Rotating the signing keys', 'Rotating the signing keys > Before you start'],
    );
    for (const c of chunks)
      assert.ok(!c.heading.split(' > ').some((seg) => !seg.trim()), `empty segment in "${c.heading}"`);
  });

  it('keeps front matter out of the chunks, and line ranges on the text kept', () => {
    const chunks = chunkDocument('postmortem', INCIDENT);
    assert.ok(
      chunks.every((c) => !/severity:|^---/m.test(c.text)),
      chunks.map((c) => c.text).join('\n---\n'),
    );
    const lines = INCIDENT.split('\n');
    for (const c of chunks) {
      assert.equal(lines[c.startLine - 1].trim(), c.text.split('\n')[0].trim());
      assert.equal(lines[c.endLine - 1].trim(), c.text.split('\n').pop()!.trim());
    }
  });

  it('shows the line that matched, with its line range, not the heading or front matter', async () => {
    const { results } = await s.engine.recall({ query: 'CoreDNS memory limit throttled' });
    const hit = results.find((h): h is DocHit => h.record === 'doc' && h.path.endsWith('2024-03-02-dns.md'))!;
    assert.ok(hit, JSON.stringify(results));
    assert.match(hit.description, /CoreDNS was throttled after its memory limit was lowered/);
    assert.doesNotMatch(hit.description, /title:|severity|Incident: DNS resolution failures/);
    const lines = INCIDENT.split('\n');
    assert.match(lines[hit.lines[0] - 1], /CoreDNS was throttled/);
    assert.ok(hit.lines[1] >= hit.lines[0] && hit.lines[1] - hit.lines[0] <= 2);
  });

  it('describes a section by its path below the title, never an empty segment', async () => {
    const { results } = await s.engine.recall({ query: 'signing key JWKS endpoint' });
    const hit = results.find((h): h is DocHit => h.record === 'doc' && h.path === 'docs/keys.md')!;
    assert.equal(hit.title, 'Rotating the signing keys');
    assert.match(hit.description, /^Before you start: Check that the new signing key is published/);
    assert.doesNotMatch(hit.description, /(^|>)\s*(>|:)/);
  });

  it('matches the snippet line with accents folded, as recall scored it', async () => {
    const { results } = await s.engine.recall({ query: 'cafe demenage travaux' });
    const hit = results.find((h): h is DocHit => h.record === 'doc' && h.path === 'docs/move.md')!;
    assert.ok(hit, JSON.stringify(results));
    assert.match(hit.description, /Le café déménage/);
    assert.equal(hit.lines[0], 5);
  });
});

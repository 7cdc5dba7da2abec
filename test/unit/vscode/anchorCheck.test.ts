// The drift fallback (no drift engine): anchors get a baseline fingerprint; a change to the named
// symbol is `changed`, a change elsewhere in the file is not; a removed symbol or file is `gone`.

import assert from 'node:assert/strict';
import { checkAnchors, parseAnchor, refreshBaselines, symbolBlock } from '../../../src/vscode/drift/anchorCheck';
import { referenceSummary } from '../../../src/vscode/drift/summary';

describe('vscode drift fallback (anchor fingerprints)', () => {
  const files = new Map<string, string>();
  const read = (path: string) => files.get(path);
  const memories = [{ key: 'decision/one-insert', anchors: ['src/queue.ts#enqueue', 'docs/ops.md'] }];

  beforeEach(() => {
    files.clear();
    files.set('src/queue.ts', 'export function enqueue(job) {\n  db.insert(job);\n}\n\nexport function drain() {\n  return db.take();\n}\n');
    files.set('docs/ops.md', '# Ops\n');
  });

  it('parses anchors, leaving URLs and line anchors without a symbol', () => {
    assert.deepEqual(parseAnchor('src/a.ts#parse'), { path: 'src/a.ts', symbol: 'parse' });
    assert.deepEqual(parseAnchor('./docs/a.md#L10-L20'), { path: 'docs/a.md', symbol: null });
    assert.equal(parseAnchor('https://example.com/x'), null);
    assert.equal(parseAnchor('../outside.ts'), null);
  });

  it('finds a symbol’s own block', () => {
    assert.deepEqual(symbolBlock(files.get('src/queue.ts')!, 'enqueue'), { start: 0, end: 2, text: 'export function enqueue(job) {\n  db.insert(job);\n}' });
    assert.equal(symbolBlock(files.get('src/queue.ts')!, 'missing'), null);
  });

  it('is current at first sight, changed when the symbol changes, not when the rest of the file does', () => {
    const baselines = new Map<string, string>();
    const first = checkAnchors(memories, ['src/queue.ts'], read, baselines);
    assert.deepEqual(first.map((f) => [f.reference.raw, f.state]), [['src/queue.ts#enqueue', 'current']]);

    files.set('src/queue.ts', files.get('src/queue.ts')!.replace('return db.take();', 'return db.takeMany();'));
    assert.equal(checkAnchors(memories, ['src/queue.ts'], read, baselines)[0].state, 'current');

    files.set('src/queue.ts', files.get('src/queue.ts')!.replace('db.insert(job);', 'db.insert(job);\n  broker.publish(job);'));
    const changed = checkAnchors(memories, ['src/queue.ts'], read, baselines);
    assert.equal(changed[0].state, 'changed');
    assert.equal(changed[0].source.key, 'decision/one-insert');

    assert.equal(refreshBaselines(memories[0], read, baselines), 2);
    assert.equal(checkAnchors(memories, ['src/queue.ts'], read, baselines)[0].state, 'current');
  });

  it('is gone when the symbol or the file is', () => {
    const baselines = new Map<string, string>();
    files.set('src/queue.ts', 'export function drain() {}\n');
    assert.equal(checkAnchors(memories, ['src/queue.ts'], read, baselines)[0].state, 'gone');
    files.delete('docs/ops.md');
    const all = checkAnchors(memories, null, read, baselines);
    assert.deepEqual(all.map((f) => f.state), ['gone', 'gone']);
    assert.match(all[1].evidence.detail, /docs\/ops\.md no longer exists/);
  });

  it('summarises who refers to a saved file', () => {
    const baselines = new Map<string, string>();
    const two = [...memories, { key: 'decision/other', anchors: ['src/queue.ts'] }, { key: 'dead_end/redis', anchors: ['src/queue.ts#drain'] }];
    const findings = checkAnchors(two, ['src/queue.ts'], read, baselines);
    assert.equal(referenceSummary(findings), '2 decisions and 1 dead end reference this file');
    assert.equal(referenceSummary(findings.slice(0, 1)), '1 decision references this file');
    assert.equal(referenceSummary([]), null);
  });
});

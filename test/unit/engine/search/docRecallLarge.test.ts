// Document recall in a large index: words found in a tenth of all chunks stop generating
// candidates (they add little evidence and cost the most to score), and the candidates are scored
// on the whole query. The ranking a person sees must be the one the whole query gives.

import { strict as assert } from 'node:assert';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Engine } from '../../../../src/engine';
import { ftsQuery } from '../../../../src/engine/text/words';
import { WorkspaceFileSource } from '../../../../src/host/fileSource';
import { WasmSqlDatabase } from '../../../../src/host/sqlite';
import { tempDir } from '../../../support/store';

const FILES = 560;
const SECTIONS = 10;
const RARE = ['zeppelin', 'quokka', 'marzipan', 'obsidian', 'tundra', 'saffron', 'gondola'];

describe('document recall in a large index', function () {
  this.timeout(120_000);
  let dir: string;
  let db: WasmSqlDatabase;
  let engine: Engine;

  before(async () => {
    dir = tempDir('lore-large-index-');
    const root = join(dir, 'repo');
    mkdirSync(join(root, 'docs'), { recursive: true });
    for (let f = 0; f < FILES; f++) {
      const sections = Array.from({ length: SECTIONS }, (_, s) => {
        const n = f * SECTIONS + s;
        // "deploy" is in every other chunk, "cluster" in every third; rare words in a handful.
        const words = [
          n % 2 === 0 ? 'deploy the service' : 'write the report',
          n % 3 === 0 ? 'on the cluster' : 'for the team',
          n % 997 < RARE.length ? `about ${RARE[n % 997]}` : '',
        ];
        return `## Section ${n}\n\n${words.join(' ')} step ${n}.\n`;
      });
      writeFileSync(join(root, 'docs', `doc-${f}.md`), `# Document ${f}\n\n${sections.join('\n')}`);
    }
    db = new WasmSqlDatabase(join(dir, 'lore.db'));
    engine = new Engine({ db });
    const run = engine.index(new WorkspaceFileSource(root));
    while (!(await run.next()).done);
    assert.ok(engine.indexStatus().chunks > 5000, 'large enough for common words to be set aside');
  });
  after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The whole query's bm25 ranking, best chunk per document: what recall must agree with. */
  function wholeQueryRanking(query: string, limit: number): string[] {
    const rows = db.all<{ path: string; bm: number }>(
      `SELECT d.path, bm25(doc_fts, 4.0, 2.0, 1.0) AS bm FROM doc_fts ` +
        `JOIN doc_chunks c ON c.id = doc_fts.rowid JOIN docs d ON d.id = ` +
        `c.doc_id WHERE doc_fts MATCH ? ORDER BY bm`,
      [ftsQuery(query)],
    );
    const seen: string[] = [];
    for (const r of rows) if (!seen.includes(r.path)) seen.push(r.path);
    return seen.slice(0, limit);
  }

  it('ranks a common word with a rare one as the whole query does', async () => {
    for (const rare of RARE.slice(0, 4)) {
      const query = `deploy cluster ${rare}`;
      const { results } = await engine.recall({ query, limit: 3 });
      const expected = wholeQueryRanking(query, 3);
      assert.deepEqual(
        results.map((r) => (r.record === 'doc' ? r.path : r.key)),
        expected,
        query,
      );
      assert.ok(results.length > 0);
    }
  });

  it('still answers a query of common words only', async () => {
    const { results } = await engine.recall({ query: 'deploy cluster', limit: 5 });
    assert.equal(results.length, 5);
    assert.ok(results.every((r) => r.record === 'doc'));
  });
});

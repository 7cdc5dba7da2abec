// The index reads a few files ahead of the one it is indexing (issue 18, point 3): reads overlap
// the chunking and writing instead of being waited out one by one, every file still gets its own
// text, unchanged files are not read, and a read that fails fails the run at that file's turn.

import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { Engine, type FileSource, type IndexSummary, type SourceFile } from '../../../../src/engine';
import { WasmSqlDatabase } from '../../../../src/host/sqlite';
import { tempDir, TestClock } from '../../../support/store';

const FILES = 40;

/** Files in memory whose reads finish a turn of the thread later, counting how many are in flight. */
function source(texts: Map<string, string>, failing?: string) {
  const stats = { inFlight: 0, most: 0, reads: [] as string[] };
  const files: FileSource = {
    list: async (): Promise<SourceFile[]> =>
      [...texts.keys()].sort().map((path) => ({ path, size: texts.get(path)!.length, mtimeMs: 1 })),
    read: async (path) => {
      stats.reads.push(path);
      stats.most = Math.max(stats.most, ++stats.inFlight);
      await new Promise((turned) => setImmediate(turned));
      stats.inFlight--;
      if (path === failing) throw new Error(`EIO: i/o error, read '${path}'`);
      return texts.get(path) ?? null;
    },
  };
  return { files, stats };
}

const notes = (n: number) =>
  new Map(
    Array.from({ length: n }, (_, i) => [`docs/note-${String(i).padStart(2, '0')}.md`, `# Note ${i}\n\nquill${i}\n`]),
  );

describe('index: reading ahead', () => {
  let engine: Engine;
  let db: WasmSqlDatabase;
  let dir: string;
  beforeEach(() => {
    dir = tempDir('lore-readahead-');
    db = new WasmSqlDatabase(join(dir, 'lore.db'));
    engine = new Engine({ db, clock: new TestClock() });
  });
  afterEach(() => db.close());

  const drain = async (files: FileSource, batchSize?: number): Promise<IndexSummary> => {
    const run = engine.index(files, { batchSize });
    for (;;) {
      const step = await run.next();
      if (step.done) return step.value;
    }
  };

  it('has several reads in flight, and stores each file with its own text', async () => {
    const texts = notes(FILES);
    const { files, stats } = source(texts);
    const summary = await drain(files);
    assert.equal(summary.indexed, FILES);
    assert.ok(stats.most > 1, `at most ${stats.most} read in flight`);
    assert.equal(stats.reads.length, FILES, 'each file is read once');
    const stored = db.all<{ path: string; text: string }>(
      'SELECT d.path, c.text FROM docs d JOIN doc_chunks c ON c.doc_id = d.id ORDER BY d.path',
    );
    for (const [path, text] of texts) {
      const marker = new RegExp(`\\b${/quill\d+/.exec(text)![0]}\\b`);
      const own = stored.filter((row) => row.path === path).map((row) => row.text);
      assert.match(own.join('\n'), marker, `${path} is stored with its own text`);
    }
  });

  it('reads ahead only the files that changed', async () => {
    const texts = notes(FILES);
    await drain(source(texts).files);
    texts.set('docs/note-07.md', '# Note 7\n\nquill7 changed\n');
    const changed = source(texts);
    // Same size and time would look unchanged: the edited file has another size.
    const summary = await drain(changed.files);
    assert.equal(summary.indexed, 1);
    assert.deepEqual(changed.stats.reads, ['docs/note-07.md']);
  });

  it('a read that fails fails the run at its turn, with the files before it stored', async () => {
    const { files } = source(notes(FILES), 'docs/note-30.md');
    await assert.rejects(drain(files, 10), /EIO: i\/o error, read 'docs\/note-30.md'/);
    const stored = db.get<{ n: number }>('SELECT COUNT(*) AS n FROM docs')!.n;
    assert.equal(stored, 30, `${stored} documents stored before the failing read`);
  });
});

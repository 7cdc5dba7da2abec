// listDocs({ paths }): what kind of doc each named path is, as the index classified it (the editor's
// drift sentences say "this ADR"). A path that is not indexed is left out; too many paths is refused.

import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { WorkspaceFileSource } from '../../../../src/host/fileSource';
import { LIMITS } from '../../../../src/engine';
import { openTestStore, tempDir, type TestStore } from '../../../support/store';

describe('listDocs by path', () => {
  let store: TestStore;
  let root: string;
  beforeEach(async () => {
    store = openTestStore();
    root = tempDir();
    const files: Record<string, string> = {
      'docs/adr/0001-queue.md': '# ADR 1: Queue in Postgres\n\n## Status\n\nAccepted\n\n## Decision\n\nPostgres.\n',
      // A runbook with its steps and a command (a one-line page is too little for the kind model).
      'docs/runbooks/deploy.md':
        '# Deploy\n\nWhen a release is ready:\n\n## Steps\n\n1. Run the deploy script.\n2. Check the pods.\n' +
        '3. Roll back if errors rise.\n\n```bash\n./deploy.sh production\n```\n',
      'README.md': '# Service\n\nHello.\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const run = store.engine.index(new WorkspaceFileSource(root));
    for await (const _ of run);
  });
  afterEach(() => store.cleanup());

  it('answers the kinds of exactly the paths asked for', () => {
    const [adr, runbook] = ['docs/adr/0001-queue.md', 'docs/runbooks/deploy.md'];
    const { items, total } = store.engine.listDocs({ paths: [adr, runbook, 'nope.md'] });
    assert.equal(total, 2);
    assert.deepEqual(
      items.map((d) => [d.path, d.kind]),
      [
        [adr, 'adr'],
        [runbook, 'runbook'],
      ],
    );
  });

  it('refuses a paths list that is not strings or longer than a page, naming the field', () => {
    assert.throws(() => store.engine.listDocs({ paths: [3 as unknown as string] }), /paths must be a list/);
    const many = Array.from({ length: LIMITS.listMax + 1 }, (_, i) => `f${i}.md`);
    const limit = new RegExp(`paths names ${LIMITS.listMax + 1} files; at most ${LIMITS.listMax}`);
    assert.throws(() => store.engine.listDocs({ paths: many }), limit);
  });
});

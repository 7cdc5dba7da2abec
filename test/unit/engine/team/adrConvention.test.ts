// Promote to Repository learns where this repository keeps its ADRs from the documents the index
// classified as ADRs — any folder name, any numbering width, its file-name separator and heading
// style — rather than from a list of folder names; a repository without ADRs gets the default.

import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Engine } from '../../../../src/engine';
import { WorkspaceFileSource } from '../../../../src/host/fileSource';
import { WorkspaceRepoFiles } from '../../../../src/host/repoFiles';
import { memory, openTestStore, person, tempDir, type TestStore } from '../../../support/store';

const KEY = 'decision/use-postgres-for-the-job-queue';

function nygard(number: string, title: string): string {
  const sections = ['## Status', 'Accepted', '## Context', 'Why.', '## Decision', 'What.', '## Consequences', 'So.'];
  return [`# ADR-${number}: ${title}`, 'Date: 2025-01-10', ...sections].join('\n\n') + '\n';
}

function repo(files: Record<string, string>): string {
  const root = tempDir('lore-adr-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

async function index(engine: Engine, root: string): Promise<void> {
  const run = engine.index(new WorkspaceFileSource(root));
  for (let step = await run.next(); !step.done; step = await run.next());
}

describe('canonicalize: the ADR convention is learned from the indexed ADRs', () => {
  let s: TestStore;
  beforeEach(() => {
    s = openTestStore();
    s.engine.remember(person, memory());
  });
  afterEach(() => s.cleanup());

  it('writes the next ADR in a folder of any name, with its prefix, width, separator and heading', async () => {
    const root = repo({
      'README.md': '# Shop\n',
      'handbook/choices/ADR-007_keep_the_monolith.md': nygard('007', 'Keep the monolith'),
      'handbook/choices/ADR-011_split_billing.md': nygard('011', 'Split billing'),
      'handbook/guide.md': '# Guide\n\nHow we work.\n',
    });
    await index(s.engine, root);
    const result = s.engine.canonicalize(person, KEY, {}, new WorkspaceRepoFiles(root));
    assert.equal(result.as, 'adr');
    assert.equal(result.path, 'handbook/choices/ADR-012_use_postgres_for_the_job_queue.md');
    const text = readFileSync(join(root, result.path), 'utf8');
    assert.match(text.split('\n')[0], /^# ADR-012: /);
    assert.equal(existsSync(join(root, 'docs/adr')), false, "no default folder beside the repository's own");
  });

  it('the folder with most ADRs wins over a well-known folder name holding fewer', async () => {
    const root = repo({
      'docs/adr/0001-first.md': nygard('0001', 'First'),
      'rfcs/decided/12-one.md': nygard('12', 'One'),
      'rfcs/decided/13-two.md': nygard('13', 'Two'),
    });
    await index(s.engine, root);
    assert.equal(
      s.engine.canonicalize(person, KEY, { as: 'adr' }, new WorkspaceRepoFiles(root)).path,
      'rfcs/decided/14-use-postgres-for-the-job-queue.md',
    );
  });

  it('a repository with no ADRs gets the default folder', async () => {
    const root = repo({ 'README.md': '# Shop\n', 'docs/guide.md': '# Guide\n' });
    await index(s.engine, root);
    assert.equal(
      s.engine.canonicalize(person, KEY, { as: 'adr' }, new WorkspaceRepoFiles(root)).path,
      'docs/adr/0001-use-postgres-for-the-job-queue.md',
    );
  });
});

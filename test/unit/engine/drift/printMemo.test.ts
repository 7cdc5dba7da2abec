// A target's fingerprint is worked out once per check (Workspace.memo: an index's check fingerprints
// the same section for every link into it), and never outlives the text it was taken from: a file
// refreshed or a new check (texts forgotten) is fingerprinted anew.

import { strict as assert } from 'node:assert';
import { sha256 } from '../../../../src/engine/model/digest';
import { fingerprintOf, targetHash, type Target } from '../../../../src/engine/drift/target';
import { Workspace } from '../../../../src/engine/drift/workspace';
import type { WorkspaceReader } from '../../../../src/engine/drift/types';

/** A workspace held in memory, its files edited by the test; counts its reads. */
function memoryReader(files: Record<string, string>): WorkspaceReader & { reads: number } {
  const mtimes: Record<string, number> = {};
  const reader = {
    reads: 0,
    list: () => Object.keys(files).map((path) => ({ path, size: files[path].length, mtimeMs: mtimes[path] ?? 1 })),
    stat: (path: string) => (path in files ? { size: files[path].length, mtimeMs: mtimes[path] ?? 1 } : null),
    read: (path: string) => {
      reader.reads++;
      return files[path] ?? null;
    },
    digest: (path: string) => (path in files ? sha256(files[path]) : null),
  };
  return reader;
}

const GUIDE = 'docs/guide.md';
const page = (setup: string) => `# Guide\n\n## Setup\n\n${setup}\n\n## Usage\n\nRun it.\n`;
const SECTION: Target = { path: GUIDE, kind: 'heading', symbol: 'setup' };
const FILE: Target = { path: GUIDE, kind: 'file', symbol: null };
const CODE = 'src/app.py';
const SYMBOL: Target = { path: CODE, kind: 'symbol', symbol: 'serve' };

describe('drift fingerprints: once per check, never past their text', () => {
  it('fingerprints a refreshed file anew, and reads it once for many links into it', () => {
    const files: Record<string, string> = {
      [GUIDE]: page('Install the tool.'),
      [CODE]: 'def serve():\n    return 1\n\ndef other():\n    return 2\n',
    };
    const reader = memoryReader(files);
    const ws = new Workspace(reader);
    const before = targetHash(ws, SECTION);
    assert.equal(before, sha256('\nInstall the tool.\n'));
    const reads = reader.reads;
    for (let i = 0; i < 50; i++) assert.equal(fingerprintOf(ws, SECTION)?.fingerprint, before);
    assert.ok(reader.reads - reads <= 1, `50 links into one section read it ${reader.reads - reads} times`);
    const fileBefore = targetHash(ws, FILE);
    const symbolBefore = targetHash(ws, SYMBOL);
    assert.ok(symbolBefore);

    files[GUIDE] = page('Install the tool with pipx.');
    files[CODE] = 'def serve():\n    return 3\n\ndef other():\n    return 2\n';
    ws.refresh([GUIDE, CODE]);
    assert.equal(targetHash(ws, SECTION), sha256('\nInstall the tool with pipx.\n'), 'the section after its edit');
    assert.equal(fingerprintOf(ws, SECTION)?.fingerprint, sha256('\nInstall the tool with pipx.\n'));
    assert.equal(fingerprintOf(ws, SECTION)?.size, files[GUIDE].length, 'the stat after the edit');
    assert.notEqual(targetHash(ws, FILE), fileBefore, 'the file after its edit');
    assert.notEqual(targetHash(ws, SYMBOL), symbolBefore, 'the function after its edit');
  });

  it('fingerprints anew in the next check (texts forgotten), and a print handed out is the caller’s own', () => {
    const files: Record<string, string> = { [GUIDE]: page('Install the tool.') };
    const ws = new Workspace(memoryReader(files));
    const first = fingerprintOf(ws, SECTION)!;
    first.fingerprint = 'changed by a caller';
    assert.equal(fingerprintOf(ws, SECTION)?.fingerprint, sha256('\nInstall the tool.\n'));
    files[GUIDE] = page('Install it from source.');
    ws.forgetTexts();
    assert.equal(targetHash(ws, SECTION), sha256('\nInstall it from source.\n'));
    assert.equal(fingerprintOf(ws, SECTION)?.fingerprint, sha256('\nInstall it from source.\n'));
  });
});

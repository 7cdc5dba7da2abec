// An index's drift check in slices (issue 18, point 3): after each committed batch the owner
// checks the batch's references in small steps and turns its thread between them, so agents and
// the editor are answered meanwhile; the findings are the ones a one-transaction check gives. And
// the symbol index a check needs is built a file at a time, right when files change meanwhile.

import { strict as assert } from 'node:assert';
import { DriftService } from '../../../../src/engine/drift/service';
import { Workspace } from '../../../../src/engine/drift/workspace';
import type { WorkspaceReader } from '../../../../src/engine/drift/types';
import type { Engine } from '../../../../src/engine';
import { WorkspaceFileSource } from '../../../../src/host/fileSource';
import { driftSpace, type DriftSpace } from '../../../support/drift';

const DOCS = 30;

function corpus(): Record<string, string> {
  const files: Record<string, string> = {};
  const vars: string[] = [];
  for (let i = 0; i < DOCS; i++) {
    files[`docs/input-${i}.md`] =
      `# Input ${i}\n\nSet \`pin_${i}\` before an upgrade, see [the runbook](runbook.md).\n`;
    vars.push(`variable "pin_${i}" {\n  type = string\n}\n`);
  }
  files['docs/runbook.md'] = '# Runbook\n\nRestart the workers.\n';
  files['modules/eks/variables.tf'] = vars.join('\n');
  return files;
}

/** Runs an index to its end; returns how many times the thread turned after its last progress step. */
async function index(engine: Engine, root: string): Promise<number> {
  let turns = 0;
  let ticking = true;
  const tick = () => {
    turns++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    const run = engine.index(new WorkspaceFileSource(root));
    let mark = turns;
    for (let step = await run.next(); !step.done; step = await run.next()) mark = turns;
    return turns - mark;
  } finally {
    ticking = false;
  }
}

/** Every stored reference as a user reads it. */
function findings(s: DriftSpace): string[] {
  return s
    .all()
    .map((f) => `${f.source.path} ${f.reference.raw} ${f.state} ${f.reference.target_path}`)
    .sort();
}

describe("drift: an index's check runs in slices", function () {
  const spaces: DriftSpace[] = [];
  const sliceMs = DriftService.sliceMs;
  afterEach(() => {
    DriftService.sliceMs = sliceMs;
    spaces.splice(0).forEach((s) => s.cleanup());
  });
  const space = () => {
    const s = driftSpace(corpus());
    spaces.push(s);
    return s;
  };

  it("turns the thread between the steps of a batch's check, and every reference is checked", async () => {
    DriftService.sliceMs = 0;
    const s = space();
    const turns = await index(s.engine, s.root);
    // A step per path refreshed, per document synced and per reference classified, a turn after each.
    assert.ok(turns >= DOCS * 2, `the thread turned ${turns} times while drift checked ${DOCS} documents`);
    for (let i = 0; i < DOCS; i++) {
      const [pin] = s.refs(`docs/input-${i}.md`, `pin_${i}`);
      assert.equal(pin?.state, 'current');
      assert.equal(pin?.reference.target_path, 'modules/eks/variables.tf');
    }
  });

  it('finds what a check in one slice finds, after a first index and after a definition is deleted', async () => {
    const sliced = space();
    const whole = space();
    const runs: Array<[DriftSpace, number]> = [
      [sliced, 0],
      [whole, Number.POSITIVE_INFINITY],
    ];
    for (const [s, ms] of runs) {
      DriftService.sliceMs = ms;
      await index(s.engine, s.root);
    }
    assert.deepEqual(findings(sliced), findings(whole));
    for (const [s, ms] of runs) {
      DriftService.sliceMs = ms;
      s.write('modules/eks/variables.tf', 'variable "other" {\n  type = string\n}\n');
      s.write('docs/runbook.md', '# Runbook\n\nRestart the workers, then drain the queue.\n');
      await index(s.engine, s.root);
    }
    const after = findings(sliced);
    assert.deepEqual(after, findings(whole));
    assert.ok(after.includes('docs/input-3.md pin_3 gone modules/eks/variables.tf'), after.join('\n'));
    assert.ok(after.includes('docs/input-3.md runbook.md changed docs/runbook.md'), after.join('\n'));
  });

  it('a symbol defined in a file a later batch indexes is found, and its deleted definition is gone', async () => {
    DriftService.sliceMs = 0;
    const s = driftSpace({
      'aa/inputs.md': '# Inputs\n\nSet `late_pin` to pin it.\n',
      // More files than one check takes, so the definition is indexed (and checked) after the document.
      ...Object.fromEntries(Array.from({ length: 260 }, (_, i) => [`mm/note-${i}.md`, `# Note ${i}\n\nNothing.\n`])),
      'zz/variables.tf': 'variable "late_pin" {\n  type = string\n}\n',
    });
    spaces.push(s);
    await index(s.engine, s.root);
    assert.equal(s.refs('aa/inputs.md', 'late_pin')[0]?.reference.target_path, 'zz/variables.tf');
    assert.equal(s.refs('aa/inputs.md', 'late_pin')[0]?.state, 'current');
    s.write('zz/variables.tf', 'variable "other" {\n  type = string\n}\n');
    await index(s.engine, s.root);
    assert.equal(s.refs('aa/inputs.md', 'late_pin')[0]?.state, 'gone');
  });
});

describe('drift: the symbol index built a file at a time', () => {
  /** A workspace in memory whose files a test edits between steps. */
  function memoryReader(files: Map<string, string>): WorkspaceReader {
    const stat = (path: string) => (files.has(path) ? { size: files.get(path)!.length, mtimeMs: 1 } : null);
    return {
      list: () => [...files.keys()].sort().map((path) => ({ path, ...stat(path)! })),
      stat,
      read: (path) => files.get(path) ?? null,
      digest: () => null,
    };
  }

  it('a file changed and refreshed while the index is built is indexed as it is now', () => {
    const files = new Map([
      ['a/variables.tf', 'variable "alpha" {}\n'],
      ['b/variables.tf', 'variable "beta" {}\n'],
      ['c/variables.tf', 'variable "gamma" {}\n'],
    ]);
    const ws = new Workspace(memoryReader(files));
    const build = ws.indexingSymbols();
    build.next(); // a/ indexed
    build.next(); // b/ indexed
    files.set('a/variables.tf', 'variable "delta" {}\n');
    files.set('d/variables.tf', 'variable "alpha" {}\n');
    files.delete('c/variables.tf');
    ws.refresh(['a/variables.tf', 'c/variables.tf', 'd/variables.tf']);
    while (!build.next().done);
    assert.deepEqual(
      ws.sitesOf('alpha').map((site) => site.path),
      ['d/variables.tf'],
    );
    assert.deepEqual(
      ws.sitesOf('delta').map((site) => site.path),
      ['a/variables.tf'],
    );
    assert.deepEqual(ws.sitesOf('gamma'), []);
    assert.deepEqual(
      ws.sitesOf('beta').map((site) => site.path),
      ['b/variables.tf'],
    );
  });
});

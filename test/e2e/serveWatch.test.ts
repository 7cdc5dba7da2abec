// `lore serve` keeps its index current from file events: after a first index, a file written to
// the workspace becomes recallable and a deleted one leaves the index, with no index command;
// a new folder and a .gitignore written later are followed too. Waits on the owner's own log
// lines (each change's run), never on a timer.

import { strict as assert } from 'node:assert';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, sandbox, startServe, type Sandbox, type ServeProcess } from '../support/processes';

function lore(box: Sandbox, args: string[]) {
  const r = spawnSync(process.execPath, [CLI, '--workspace', box.workspace, '--json', ...args], {
    env: box.env,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const paths = (box: Sandbox, query: string): string[] =>
  (lore(box, ['recall', query]).results as Array<{ path?: string }>).map((r) => r.path ?? '');

/** Resolves at the owner's next log line matching `pattern` (lines already seen do not count). */
function nextLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve) => {
    let pending = '';
    const onData = (data: Buffer) => {
      pending += data.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      const hit = lines.find((line) => pattern.test(line));
      if (hit) {
        child.stderr!.off('data', onData);
        resolve(hit);
      }
    };
    child.stderr!.on('data', onData);
  });
}

describe('lore serve indexes changed files from file events', function () {
  this.timeout(120_000);
  let box: Sandbox;
  let serve: ServeProcess;
  beforeEach(async () => {
    box = sandbox();
    mkdirSync(join(box.workspace, 'docs'), { recursive: true });
    writeFileSync(join(box.workspace, 'docs', 'first.md'), '# First\n\nAbout zebra crossings and traffic lights.\n');
    serve = await startServe(box);
  });
  afterEach(async () => {
    await serve.stop();
  });

  it('makes a written file recallable and drops a deleted one, without an index command', async () => {
    assert.equal(lore(box, ['index']).summary.indexed, 1);
    const added = nextLine(serve.child, /indexed changed files: 1 indexed/);
    writeFileSync(join(box.workspace, 'docs', 'second.md'), '# Second\n\nHow we rotate the flamingo certificates.\n');
    await added;
    assert.deepEqual(paths(box, 'flamingo certificates'), ['docs/second.md']);

    const removed = nextLine(serve.child, /indexed changed files: 0 indexed, 0 renamed, 1 removed/);
    rmSync(join(box.workspace, 'docs', 'second.md'));
    await removed;
    assert.deepEqual(paths(box, 'flamingo certificates'), []);
    const again = lore(box, ['index']);
    assert.deepEqual([again.summary.indexed, again.summary.deleted, again.status.files], [0, 0, 1]);
  });

  it('indexes changes by the globs its client last indexed with (the editor’s lore.index settings)', async () => {
    // What the editor sends: its exclude setting on top of the workspace's rules.
    const reply = await fetch(new URL('/rpc', serve.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${serve.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ op: 'indexWorkspace', args: [null, { discovery: { exclude: ['scratch/**'] } }] }),
    });
    assert.equal(reply.status, 200, await reply.clone().text());
    assert.match(await reply.text(), /"result"/);
    // Written together, so one run takes both: the excluded one is not indexed.
    const added = nextLine(serve.child, /indexed changed files: \d+ indexed/);
    mkdirSync(join(box.workspace, 'scratch'), { recursive: true });
    writeFileSync(join(box.workspace, 'scratch', 'draft.md'), '# Draft\n\nThe okapi migration plan.\n');
    writeFileSync(join(box.workspace, 'docs', 'kept.md'), '# Kept\n\nThe okapi rollout checklist.\n');
    assert.match(await added, /indexed changed files: 1 indexed/);
    assert.deepEqual(paths(box, 'okapi'), ['docs/kept.md']);
  });

  it('follows a new folder, and a .gitignore written later takes its files out', async () => {
    lore(box, ['index']);
    const added = nextLine(serve.child, /indexed changed files: 1 indexed/);
    mkdirSync(join(box.workspace, 'runbooks', 'db'), { recursive: true });
    writeFileSync(join(box.workspace, 'runbooks', 'db', 'failover.md'), '# Failover\n\nPromote the pelican replica.\n');
    await added;
    assert.deepEqual(paths(box, 'pelican replica'), ['runbooks/db/failover.md']);

    // A file in the new folder is watched too (its watcher was added by the walk the folder caused).
    const edited = nextLine(serve.child, /indexed changed files: 1 indexed/);
    writeFileSync(join(box.workspace, 'runbooks', 'db', 'failover.md'), '# Failover\n\nPromote the walrus replica.\n');
    await edited;
    assert.deepEqual(paths(box, 'walrus replica'), ['runbooks/db/failover.md']);

    const ignored = nextLine(serve.child, /indexed changed files: 0 indexed, 0 renamed, 1 removed/);
    writeFileSync(join(box.workspace, '.gitignore'), 'runbooks/\n');
    await ignored;
    assert.deepEqual(paths(box, 'walrus replica'), []);
  });

  it('checks drift for a changed file the index leaves out: code a doc names, edited or deleted on disk', async () => {
    mkdirSync(join(box.workspace, 'src'), { recursive: true });
    const code = join(box.workspace, 'src', 'worker.ts');
    writeFileSync(code, 'export function processJob(job: string): string {\n  return `done ${job}`;\n}\n');
    writeFileSync(
      join(box.workspace, 'docs', 'worker.md'),
      '# Worker\n\nThe loop is `processJob()` in `src/worker.ts`.\n',
    );
    const first = lore(box, ['index']);
    assert.equal(first.status.files, 2, 'the two docs are indexed; the TypeScript file is not (a docs repository)');
    const states = () =>
      (
        lore(box, [
          'drift',
          'list',
          '--path',
          'docs/worker.md',
          ...['current', 'changed', 'gone'].flatMap((s) => ['--state', s]),
        ]) as Array<{
          reference: { raw: string };
          state: string;
        }>
      )
        .map((f) => `${f.reference.raw} ${f.state}`)
        .sort();
    assert.deepEqual(states(), ['processJob() current', 'src/worker.ts current']);

    const changed = nextLine(serve.child, /drift: 2 reference\(s\) into files changed on disk/);
    writeFileSync(code, 'export function processJob(job: string): string {\n  return `finished ${job}`;\n}\n');
    await changed;
    assert.deepEqual(states(), ['processJob() changed', 'src/worker.ts changed']);

    const gone = nextLine(serve.child, /drift: \d+ reference\(s\) into files changed on disk/);
    rmSync(code);
    await gone;
    assert.deepEqual(states(), ['processJob() gone', 'src/worker.ts gone']);
  });
});

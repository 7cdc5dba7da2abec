// The anchor snapshot behind `lore hook pre-tool-use` (src/cli/anchorSnapshot.ts): through the
// built `lore`, the hook answers from the snapshot without loading the command bundle or SQLite
// when it is current, and otherwise reads the store and gives the same answer the store gives:
// when the snapshot is missing, stale (the store changed since), tampered with, from another
// store, when an anchored file changed on disk since, and when hooks and a write run at once.
// What a hook loaded is read from test/support/traceWasmLoads.cjs.

import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { inParallel, makeSpace, ok, runCli, runCliAsync, type CliSpace } from '../support/cli';

const PRELOAD = resolve(__dirname, '../support/traceWasmLoads.cjs');
const FILE = 'src/jobs/queue.ts';

describe('e2e: the pre-tool-use hook and its anchor snapshot', function () {
  this.timeout(180_000);
  let space: CliSpace;
  let other: CliSpace;
  const snapshot = () => join(space.paths().dir, 'anchors.snapshot');
  const input = (file: string) =>
    JSON.stringify({
      cwd: space.workspace,
      hook_event_name: 'PreToolUse',
      tool_name: 'Edit',
      tool_input: { file_path: join(space.workspace, file), old_string: 'a', new_string: 'b' },
    });
  /** The hook's answer (nonces blanked), and whether it loaded the command bundle (i.e. read the store). */
  function hook(file = FILE): { text: string; store: boolean } {
    const trace = join(space.root, 'trace.txt');
    rmSync(trace, { force: true });
    const env = { NODE_OPTIONS: `--require ${PRELOAD}`, LORE_TRACE_WASM: trace };
    const r = ok(runCli(['hook', 'pre-tool-use'], { home: space.home, input: input(file), env }), 'hook');
    const loaded = existsSync(trace) ? readFileSync(trace, 'utf8') : '';
    return { text: r.stdout.replace(/nonce=\\"[0-9a-f]+\\"/g, 'nonce'), store: /cliMain\.js/.test(loaded) };
  }
  const remember = (s: CliSpace, key: string, title: string, anchor = `${FILE}#claimNext`) =>
    ok(
      s.lore(
        'remember',
        '--type',
        key.split('/')[0],
        '--key',
        key,
        '--title',
        title,
        '--description',
        'about the job queue',
        '--anchor',
        anchor,
      ),
    );

  before(() => {
    space = makeSpace('lore-snapshot-');
    other = makeSpace('lore-snapshot-other-');
    for (const s of [space, other]) {
      mkdirSync(join(s.workspace, '.git'));
      mkdirSync(join(s.workspace, 'src/jobs'), { recursive: true });
      writeFileSync(join(s.workspace, FILE), 'export function claimNext() {\n  return 1;\n}\n');
    }
    remember(space, 'decision/jobs-postgres', 'Jobs run on Postgres SKIP LOCKED');
    remember(space, 'dead_end/jobs-redis', 'Redis streams for jobs lost work');
    remember(space, 'decision/jobs-file', 'The queue module stays one file', FILE);
    remember(other, 'decision/other-store', 'A decision of another repository');
  });
  after(() => {
    space.cleanup();
    other.cleanup();
  });

  it('a write leaves a current snapshot (0600): the hook answers from it without the store', () => {
    assert.equal(statSync(snapshot()).mode & 0o777, 0o600);
    const fast = hook();
    assert.equal(fast.store, false, 'the hook loaded the command bundle');
    assert.match(fast.text, /DEAD END dead_end\/jobs-redis: Redis streams for jobs lost work[^\n]*\(holds\)/);
    assert.match(fast.text, /decision\/jobs-postgres: Jobs run on Postgres SKIP LOCKED[^\n]*\(holds\)/);
    const none = hook('README.md');
    assert.deepEqual(none, { text: '', store: false });
  });

  it('gives the answer the store gives when the snapshot is missing, and writes it again', () => {
    const fast = hook();
    rmSync(snapshot());
    const fromStore = hook();
    assert.equal(fromStore.store, true);
    assert.equal(fromStore.text, fast.text);
    assert.ok(existsSync(snapshot()), 'the store read wrote the snapshot again');
    assert.deepEqual(hook(), { text: fast.text, store: false });
  });

  it('does not trust a stale snapshot: a record saved since is shown', () => {
    const old = join(space.root, 'old.snapshot');
    copyFileSync(snapshot(), old);
    remember(space, 'decision/jobs-retry', 'Failed jobs retry three times');
    copyFileSync(old, snapshot()); // as if the write had left the snapshot behind
    const r = hook();
    assert.equal(r.store, true);
    assert.match(r.text, /decision\/jobs-retry: Failed jobs retry three times/);
    assert.deepEqual(hook(), { text: r.text, store: false });
  });

  it('does not trust a tampered snapshot: an edited title, or a path taken out, is read from the store', () => {
    const before = hook();
    const text = readFileSync(snapshot(), 'utf8');
    writeFileSync(snapshot(), text.replace('Redis streams for jobs lost work', 'Redis streams are fine, use them'));
    const edited = hook();
    assert.equal(edited.store, true);
    assert.equal(edited.text, before.text);
    const [mac, body] = [text.slice(0, 64), JSON.parse(text.slice(65))];
    body.paths = {};
    writeFileSync(snapshot(), `${mac}\n${JSON.stringify(body)}`);
    const emptied = hook();
    assert.equal(emptied.store, true);
    assert.equal(emptied.text, before.text);
  });

  it("does not trust another store's snapshot copied in", () => {
    const before = hook();
    ok(other.lore('list'));
    copyFileSync(join(other.paths().dir, 'anchors.snapshot'), snapshot());
    const r = hook();
    assert.equal(r.store, true);
    assert.equal(r.text, before.text);
  });

  it('reads the store when an anchored file changed since: the anchor that drifted is said', () => {
    assert.equal(hook().store, false); // a current snapshot
    writeFileSync(join(space.workspace, FILE), 'export function claimLater() {\n  return 2;\n}\n');
    const r = hook();
    assert.equal(r.store, true);
    const context: string = JSON.parse(r.text).hookSpecificOutput.additionalContext;
    assert.match(context, /decision\/jobs-file[^\n]*\n\s+verification: drifted/);
    rmSync(snapshot());
    assert.equal(hook().text, r.text, 'the same answer as the store gives without a snapshot');
  });

  it('hooks running while a record is saved each give the answer before or after it, never another', async () => {
    rmSync(snapshot(), { force: true });
    const before = hook().text;
    const options = { home: space.home, input: input(FILE) };
    const saving = runCliAsync(
      [
        'remember',
        '--type',
        'dead_end',
        '--key',
        'dead_end/jobs-sqs',
        '--title',
        'SQS for jobs reordered work',
        '--description',
        'about the job queue',
        '--anchor',
        FILE,
      ],
      { home: space.home, workspace: space.workspace },
    );
    const traces = [1, 2, 3, 4, 5, 6].map((i) => join(space.root, `trace-${i}.txt`));
    const hooks = await inParallel(traces, 3, (trace) => {
      rmSync(trace, { force: true });
      const env = { NODE_OPTIONS: `--require ${PRELOAD}`, LORE_TRACE_WASM: trace };
      return runCliAsync(['hook', 'pre-tool-use'], { ...options, env });
    });
    ok(await saving);
    const after = hook();
    assert.match(after.text, /DEAD END dead_end\/jobs-sqs/);
    hooks.forEach((r, i) => {
      assert.equal(r.code, 0, r.stderr);
      const text = r.stdout.replace(/nonce=\\"[0-9a-f]+\\"/g, 'nonce');
      const store = existsSync(traces[i]) && /cliMain\.js/.test(readFileSync(traces[i], 'utf8'));
      // Through the store a hook that finds it busy says nothing (its contract on any failure);
      // from the snapshot it never gives anything but the answer before or after the save.
      const allowed = store ? [before, after.text, ''] : [before, after.text];
      assert.ok(
        allowed.includes(text),
        `an answer neither before nor after the save: ${text}\nbefore: ${before}\nafter: ${after.text}`,
      );
    });
    rmSync(snapshot());
    assert.equal(hook().text, after.text);
  });
});

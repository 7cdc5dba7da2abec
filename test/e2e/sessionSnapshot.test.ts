// The session snapshot behind `lore hook session-start` (src/cli/sessionSnapshot.ts): through the
// built `lore`, the hook answers from the snapshot without loading the command bundle or SQLite
// when it is current, with the very block the store gives (nonces aside), and otherwise reads the
// store: when the snapshot is missing, stale (the store changed since), tampered with, from
// another store, when a listed record's anchored file changed on disk, and when a listed record's
// review date has passed since it was written. What a hook loaded is read from
// test/support/traceWasmLoads.cjs.

import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { macOf, snapshotKey } from '../../src/cli/anchorSnapshot';
import { makeSpace, ok, runCli, type CliSpace } from '../support/cli';

const PRELOAD = resolve(__dirname, '../support/traceWasmLoads.cjs');
const FILE = 'src/jobs/queue.ts';

describe('e2e: the session-start hook and its session snapshot', function () {
  this.timeout(180_000);
  let space: CliSpace;
  let other: CliSpace;
  const snapshot = () => join(space.paths().dir, 'session.snapshot');
  /** The hook's answer (nonces blanked), and whether it loaded the command bundle (i.e. read the store). */
  function hook(): { text: string; store: boolean } {
    const trace = join(space.root, 'trace.txt');
    rmSync(trace, { force: true });
    const env = { NODE_OPTIONS: `--require ${PRELOAD}`, LORE_TRACE_WASM: trace };
    const input = JSON.stringify({ session_id: 's', cwd: space.workspace, hook_event_name: 'SessionStart' });
    const r = ok(runCli(['hook', 'session-start'], { home: space.home, input, env }), 'hook');
    const loaded = existsSync(trace) ? readFileSync(trace, 'utf8') : '';
    return { text: r.stdout.replace(/nonce=\\"[0-9a-f]+\\"/g, 'nonce'), store: /cliMain\.js/.test(loaded) };
  }
  /** The block as the store gives it: the snapshot removed first. */
  function fromStore(): string {
    rmSync(snapshot(), { force: true });
    const r = hook();
    assert.equal(r.store, true);
    return r.text;
  }
  const remember = (s: CliSpace, key: string, title: string, ...more: string[]) =>
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
        ...more,
      ),
    );
  /** Re-signs the snapshot's body after `edit`, with this machine's key (as a writer at another time would). */
  function resign(edit: (body: Record<string, unknown>) => void): void {
    const body = JSON.parse(readFileSync(snapshot(), 'utf8').slice(65)) as Record<string, unknown>;
    edit(body);
    const text = JSON.stringify(body);
    writeFileSync(snapshot(), `${macOf(snapshotKey(space.home)!, text)}\n${text}`);
  }

  before(() => {
    space = makeSpace('lore-session-');
    other = makeSpace('lore-session-other-');
    for (const s of [space, other]) {
      mkdirSync(join(s.workspace, '.git'));
      mkdirSync(join(s.workspace, 'src/jobs'), { recursive: true });
      writeFileSync(join(s.workspace, FILE), 'export function claimNext() {\n  return 1;\n}\n');
    }
    remember(space, 'decision/jobs-postgres', 'Jobs run on Postgres SKIP LOCKED', '--anchor', `${FILE}#claimNext`);
    remember(space, 'dead_end/jobs-redis', 'Redis streams for jobs lost work', '--anchor', FILE);
    remember(space, 'convention/deploy-day', 'Deploys go out on Tuesdays', '--valid-from', '2026-01-01T00:00:00Z');
    remember(space, 'convention/deploy-day-now', 'Deploys go out on Thursdays now');
    remember(space, 'runbook/queue-drain', 'Drain the queue before a deploy', '--review-after', '2099-01-01');
    remember(other, 'decision/other-store', 'A decision of another repository');
  });
  after(() => {
    space.cleanup();
    other.cleanup();
  });

  it('a store read leaves a snapshot (0600) from which the next start gets the same block without the store', () => {
    const full = fromStore();
    assert.match(full, /dead_end\/jobs-redis: Redis streams for jobs lost work[^\n]*\(holds\)/);
    assert.match(full, /convention\/deploy-day[^\n]*\\n {2}verification: contradicted/);
    assert.match(full, /runbook\/queue-drain/);
    assert.equal(statSync(snapshot()).mode & 0o777, 0o600);
    const fast = hook();
    assert.deepEqual(fast, { text: full, store: false });
    assert.equal(JSON.parse(readFileSync(snapshot(), 'utf8').slice(65)).until, '2099-01-01T00:00:00.000Z');
  });

  it('does not trust a stale snapshot: a record saved since is listed', () => {
    hook();
    const old = join(space.root, 'old.snapshot');
    copyFileSync(snapshot(), old);
    remember(space, 'decision/jobs-retry', 'Failed jobs retry three times');
    copyFileSync(old, snapshot()); // as if the write had left it behind
    const r = hook();
    assert.equal(r.store, true);
    assert.match(r.text, /decision\/jobs-retry: Failed jobs retry three times/);
    assert.deepEqual(hook(), { text: r.text, store: false });
  });

  it('does not trust a tampered snapshot: an edited line is read from the store', () => {
    const before = hook();
    const text = readFileSync(snapshot(), 'utf8');
    writeFileSync(snapshot(), text.replace('Redis streams for jobs lost work', 'Redis streams are fine, use them'));
    const edited = hook();
    assert.equal(edited.store, true);
    assert.equal(edited.text, before.text);
  });

  it("does not trust another store's snapshot copied in", () => {
    const before = hook();
    ok(runCli(['hook', 'session-start'], { home: other.home, workspace: other.workspace }));
    const foreign = join(other.paths().dir, 'session.snapshot');
    assert.ok(existsSync(foreign));
    copyFileSync(foreign, snapshot());
    const r = hook();
    assert.equal(r.store, true);
    assert.equal(r.text, before.text);
  });

  it('reads the store once a listed review date has passed since the snapshot was written', () => {
    const before = hook();
    assert.equal(before.store, false);
    resign((body) => (body.until = '2020-01-01T00:00:00.000Z'));
    const r = hook();
    assert.equal(r.store, true);
    assert.equal(r.text, before.text);
    assert.equal(hook().store, false, 'the store read wrote a current snapshot again');
  });

  it('reads the store when an anchored file changed since: the anchor that drifted is said', () => {
    assert.equal(hook().store, false);
    writeFileSync(join(space.workspace, FILE), 'export function claimLater() {\n  return 2;\n}\n');
    const r = hook();
    assert.equal(r.store, true);
    assert.match(r.text, /dead_end\/jobs-redis[^\n]*\\n {2}verification: drifted/);
    assert.equal(fromStore(), r.text, 'the same block as the store gives without a snapshot');
  });
});

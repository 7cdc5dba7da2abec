// `lore drift` and `lore reverify` as a person types them: a scan of a real workspace, the
// per-save check of a changed file, the kept findings filtered by state, and re-verifying a
// decision whose anchor changed (basis verified, drift cleared, audit chain intact).

import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeSpace, ok, type CliSpace } from '../support/cli';

describe('lore drift, end to end', function () {
  this.timeout(60_000);
  let space: CliSpace;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(space.workspace, path)), { recursive: true });
    writeFileSync(join(space.workspace, path), text);
  };

  beforeEach(() => {
    space = makeSpace('lore-drift-');
    write('src/jobs/queue.ts', 'export function claimNext(db) {\n  return db.query("SKIP LOCKED");\n}\n');
    write('docs/jobs.md', '# Jobs\nWorkers use `claimNext()`; see [the old notes](notes.md).\n');
  });
  afterEach(() => space.cleanup());

  it('scans, checks a saved file, lists findings by state, and re-verifies a decision', () => {
    const saved = ok(
      space.lore(
        'remember',
        '--json',
        '--type',
        'decision',
        '--title',
        'Claim jobs with SKIP LOCKED',
        '--description',
        'Workers claim the next job with FOR UPDATE SKIP LOCKED',
        '--anchor',
        'src/jobs/queue.ts#claimNext',
      ),
    );
    const key = saved.json.key as string;

    const scan = ok(space.lore('drift', 'scan', '--json'), 'drift scan');
    assert.equal(scan.json.references, 3);
    assert.deepEqual(scan.json.by_state, { current: 2, relocated: 0, changed: 0, gone: 0, broken: 1, ambiguous: 0 });
    assert.equal(scan.json.findings[0].reference.raw, 'notes.md');

    write('src/jobs/queue.ts', 'export function claimNext(db) {\n  return db.query("NOWAIT");\n}\n');
    const check = ok(space.lore('drift', 'check', 'src/jobs/queue.ts'), 'drift check');
    assert.match(check.stdout, /changed +docs\/jobs\.md:2 → claimNext\(\)/);
    assert.match(check.stdout, new RegExp(`changed +${key} → src/jobs/queue\\.ts#claimNext`));
    // An editor or script passes absolute paths: inside the workspace they are the same file.
    assert.match(
      ok(space.lore('drift', 'check', join(space.workspace, 'src/jobs/queue.ts'))).stdout,
      /changed +docs\/jobs\.md:2 → claimNext\(\)/,
    );

    const listed = ok(space.lore('drift', 'list', '--json', '--state', 'changed', '--key', key), 'drift list');
    assert.equal(listed.json.length, 1);
    assert.equal(listed.json[0].evidence.detail, 'claimNext in src/jobs/queue.ts changed since it was fingerprinted');

    const got = ok(space.lore('get', key));
    assert.match(got.stdout, /drift: src\/jobs\/queue\.ts#claimNext is changed/);

    const reverified = ok(space.lore('reverify', key, '--json'), 'reverify');
    assert.equal(reverified.json.basis, 'verified');
    assert.equal(ok(space.lore('drift', 'list', '--json', '--key', key)).json.length, 0);
    assert.equal(ok(space.lore('get', key, '--json')).json.memory.basis, 'verified');
    assert.equal(ok(space.lore('audit', 'verify', '--json')).json.ok, true);
  });

  it("lore index keeps documents' references current: lore drift list is right without a scan", () => {
    ok(space.lore('index', '--json'), 'index');
    const first = ok(space.lore('drift', 'list', '--json'), 'drift list after index');
    assert.deepEqual(
      first.json.map((f: { source: { path: string }; reference: { raw: string }; state: string }) => [
        f.source.path,
        f.reference.raw,
        f.state,
      ]),
      [['docs/jobs.md', 'notes.md', 'broken']],
    );
    write('docs/notes.md', '# Notes\nThe old queue.\n');
    write('docs/jobs.md', '# Jobs\nWorkers use `claimNext()`; see [the notes](notes.md) and [ops](ops.md).\n');
    ok(space.lore('index', '--json'), 'second index');
    const second = ok(space.lore('drift', 'list', '--json'), 'drift list after the second index');
    assert.deepEqual(
      second.json.map((f: { reference: { raw: string }; state: string }) => [f.reference.raw, f.state]),
      [['ops.md', 'broken']],
    );
  });

  it('says how to use it when the subcommand or a state is wrong', () => {
    const wrong = space.lore('drift', 'sweep');
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /unknown drift command "sweep"/);
    const state = space.lore('drift', 'list', '--state', 'stale');
    assert.equal(state.code, 2);
    assert.match(state.stderr, /--state must be one of current, relocated, changed, gone, broken/);
    const check = space.lore('drift', 'check');
    assert.equal(check.code, 2);
    assert.match(check.stderr, /needs the paths that changed/);
    const outside = space.lore('drift', 'check', '/etc/passwd');
    assert.equal(outside.code, 2);
    assert.match(outside.stderr, /\/etc\/passwd is not a path inside the workspace/);
  });
});

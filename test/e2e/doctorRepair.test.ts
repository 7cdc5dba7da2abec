// `lore doctor --repair` (issue 30 point 5): fields edited in the store file are reported by doctor
// and audit verify field by field; the repair is a person's act (refused without a terminal, and
// for a script that answers "y" in one); a person who types the code shown gets the sealed values
// written back — restored, not sealed again — and the record reads as before.

import { strict as assert } from 'node:assert';
import { WasmSqlDatabase } from '../../src/host/sqlite';
import { makeSpace, ok, runCliAsPerson, runCliInTerminal, type CliSpace } from '../support/cli';

const KEY = 'decision/use-postgres-for-the-job-queue';

function tamper(space: CliSpace, sql: string): void {
  const db = new WasmSqlDatabase(space.paths().database);
  try {
    assert.ok(db.run(sql).changes > 0, sql);
  } finally {
    db.close();
  }
}

function sealOf(space: CliSpace): string {
  const db = new WasmSqlDatabase(space.paths().database);
  try {
    return db.get<{ s: string }>('SELECT state_signature AS s FROM memories WHERE key = ?', [KEY])!.s;
  } finally {
    db.close();
  }
}

describe('lore doctor --repair: a person restores what Lore sealed', function () {
  this.timeout(180_000);
  let space: CliSpace;
  beforeEach(() => {
    space = makeSpace();
    ok(
      space.lore(
        'remember',
        '--type',
        'decision',
        '--title',
        'Use Postgres for the job queue',
        '--description',
        'Jobs go through Postgres with SKIP LOCKED',
      ),
    );
    ok(space.lore('deprecate', KEY, '--reason', 'older'));
  });
  afterEach(() => space.cleanup());

  it('reports the edited fields, refuses scripts, and restores them for a person who types the code', async () => {
    const sealed = sealOf(space);
    // valid_until hides the record from recall; the reason and the history's actor re-label it.
    tamper(space, `UPDATE memories SET valid_until = '2000-01-01T00:00:00.000Z', status_reason = 'a person said so'`);
    tamper(space, "UPDATE memory_events SET actor = 'cli:mallory' WHERE event = 'deprecated'");

    const doctor = space.lore('doctor', '--json');
    assert.equal(doctor.code, 1);
    const seals = doctor.json.checks.find((c: { name: string }) => c.name === 'seals');
    assert.equal(seals.ok, false);
    assert.match(seals.detail, /valid_until: null → "2000-01-01T00:00:00.000Z"/);
    assert.match(seals.detail, /status_reason: "older" → "a person said so"/);
    assert.match(seals.detail, /actor: "cli:[^"]+" → "cli:mallory"/);
    assert.match(seals.detail, /lore doctor --repair` restores the sealed values of 2/);
    const audit = space.lore('audit', 'verify', '--json');
    assert.equal(audit.code, 1);
    assert.ok(audit.json.problems.some((p: { problem: string }) => /valid_until/.test(p.problem)));
    assert.equal(space.lore('get', KEY).code, 1, 'the edited record is refused on read');

    // No terminal: refused. A script in a pty answering "y": refused. Nothing changed either way.
    const piped = space.lore('doctor', '--repair');
    assert.notEqual(piped.code, 0);
    assert.match(piped.stderr, /not an interactive terminal/);
    const scripted = runCliInTerminal(['doctor', '--repair'], {
      home: space.home,
      workspace: space.workspace,
      input: 'y\n',
    });
    assert.notEqual(scripted.code, 0);
    assert.match(scripted.stdout, /valid_until: null → "2000-01-01T00:00:00.000Z"/, 'the difference was shown');
    assert.match(scripted.stdout, /the code typed is not the one shown/);
    assert.equal(space.lore('doctor', '--json').code, 1);

    const person = await runCliAsPerson(['doctor', '--repair'], { home: space.home, workspace: space.workspace });
    assert.equal(person.code, 0, person.stdout + person.stderr);
    assert.match(person.stdout, /restored decision\/use-postgres-for-the-job-queue v1: status_reason, valid_until/);
    assert.match(person.stdout, /restored history event \d+ .*: actor/);
    const after = ok(space.lore('doctor', '--json'));
    assert.ok(after.json.checks.every((c: { ok: boolean }) => c.ok));
    assert.equal(ok(space.lore('get', KEY, '--json')).json.memory.status_reason, 'older');
    assert.equal(sealOf(space), sealed, 'the sealed values were restored, not the edited ones sealed');
    assert.equal(ok(space.lore('audit', 'verify', '--json')).json.ok, true);
  });
});

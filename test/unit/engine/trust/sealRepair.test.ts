// An edited sealed field is never signed again by an ordinary write (save, status change,
// supersede, bundle import, trust); only a person's repair writes the sealed values back, and an
// agent's is refused. The repair restores what Lore sealed rather than sealing the edit.

import { strict as assert } from 'node:assert';
import { Engine, LoreError } from '../../../../src/engine';
import { ephemeralSigner } from '../../../../src/engine/record/integrity';
import { WasmSqlDatabase } from '../../../../src/host/sqlite';
import { agent, confirmedPerson, memory, openTestStore, person, type TestStore } from '../../../support/store';

const KEY = 'decision/use-postgres-for-the-job-queue';
const OTHER = 'decision/retry-jobs-three-times';

const integrity = (e: unknown) =>
  e instanceof LoreError && e.code === 'INTEGRITY' && /will not sign it again/.test(e.message);

describe('sealed fields: ordinary writes never sign an edit; a person repairs', () => {
  let s: TestStore;
  const seal = () =>
    s.db.get<{ state_signature: string }>('SELECT state_signature FROM memories WHERE key = ? AND is_current = 1', [
      KEY,
    ])!.state_signature;

  beforeEach(() => {
    s = openTestStore();
    s.engine.remember(person, memory());
    s.engine.remember(person, memory({ title: 'Retry jobs three times', description: 'Then dead-letter them' }));
    s.engine.setStatus(person, KEY, 'deprecated', 'older');
    s.db.run("UPDATE memories SET valid_until = '2000-01-01T00:00:00.000Z' WHERE key = ?", [KEY]);
  });
  afterEach(() => s.cleanup());

  it('save, status change, supersede and bundle import of the edited record are refused; its seal is unchanged', () => {
    const before = seal();
    assert.throws(() => s.engine.remember(person, memory({ description: 'A new version' })), integrity);
    assert.throws(() => s.engine.setStatus(agent, KEY, 'disputed', 'unsure'), integrity);
    assert.throws(() => s.engine.supersede(person, KEY, OTHER), integrity);
    const other = new Engine({ db: new WasmSqlDatabase(':memory:'), signer: ephemeralSigner() });
    other.remember(person, memory({ description: 'From another store' }));
    assert.throws(() => s.engine.importBundle(person, other.exportBundle({}), { replace: true }), integrity);
    assert.equal(seal(), before);
    assert.match(s.engine.sealProblems()[0].reason, /valid_until: null → "2000-01-01T00:00:00.000Z"/);
  });

  it("an agent's repair is refused; a person's restores the sealed value without signing again", () => {
    const before = seal();
    assert.throws(
      () => s.engine.repairSeals(agent),
      (e: unknown) => e instanceof LoreError && e.code === 'HUMAN_ONLY',
    );
    assert.equal(s.engine.sealProblems().length, 1);
    const result = s.engine.repairSeals(confirmedPerson);
    assert.deepEqual(result.restored, [{ table: 'memories', row: `${KEY} v1`, fields: ['valid_until'] }]);
    assert.deepEqual(s.engine.sealProblems(), []);
    assert.equal(s.engine.get(KEY).memory.valid_until, null);
    assert.equal(seal(), before, 'restored, not sealed again');
    assert.equal(s.engine.verifyAudit().ok, true);
    // The repair is on the audit chain.
    assert.equal(s.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM audit_events WHERE event = 'store.repair'")!.n, 1);
  });

  it('a repair confirmed for other differences than the store now has restores nothing', () => {
    assert.throws(
      () => s.engine.repairSeals(confirmedPerson, 'not-what-is-there'),
      (e: unknown) => e instanceof LoreError && /changed after the differences were shown/.test(e.message),
    );
    assert.equal(s.engine.sealProblems().length, 1);
  });

  it('a row whose seal itself was edited is left for the person, not restored', () => {
    s.db.run('UPDATE memories SET state_sealed = replace(state_sealed, \'"deprecated"\', \'"active"\') WHERE key = ?', [
      KEY,
    ]);
    const [problem] = s.engine.sealProblems();
    assert.equal(problem.repairable, false);
    const result = s.engine.repairSeals(confirmedPerson);
    assert.deepEqual(result.restored, []);
    assert.equal(result.left[0].row, `${KEY} v1`);
  });
});

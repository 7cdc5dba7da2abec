import { strict as assert } from 'node:assert';
import { LoreError } from '../../../../src/engine';
import { agent, memory, openTestStore, person, type TestStore } from '../../../support/store';

const isInvalid = (pattern: RegExp) => (e: unknown) =>
  e instanceof LoreError && e.code === 'INVALID_INPUT' && pattern.test(e.message);

describe("source policy: an agent may not claim a person's word", () => {
  let s: TestStore;
  beforeEach(() => (s = openTestStore()));
  afterEach(() => s.cleanup());

  it('remember refuses source user or import from an agent, whatever reaches the engine', () => {
    for (const source of ['user', 'import'] as const) {
      assert.throws(
        () => s.engine.remember(agent, memory({ provenance: { source } })),
        isInvalid(
          new RegExp(
            `^provenance\\.source must be one of agent, file, webpage, tool; ` +
              `got "${source}" \\(an agent may not claim it`,
          ),
        ),
      );
    }
    assert.equal(s.engine.stats().memories, 0, 'nothing was written');
    assert.equal(s.engine.stats().audit_events, 0);
    const saved = s.engine.remember(agent, memory({ provenance: { source: 'agent' } }));
    assert.ok(saved.saved);
  });

  it("a person may say user; session close applies the same rule to an agent's candidates", () => {
    assert.ok(s.engine.remember(person, memory()).saved);
    assert.throws(
      () =>
        s.engine.sessionClose(
          agent,
          {
            memories: [
              { type: 'fact', title: 'A claim', description: 'Said by nobody', provenance: { source: 'user' } },
            ],
          },
          { mode: 'accept' },
        ),
      isInvalid(
        /memories\[0\]\.provenance\.source must be one of agent, file, webpage, tool; got "user" \(an agent may not claim it/,
      ),
    );
    assert.throws(
      () => s.engine.sessionClose(agent, { source: 'user', memories: [], summary: 'x' }),
      isInvalid(/^source must be one of agent, file, webpage, tool; got "user" \(an agent/),
    );
  });

  it('a person closing a session may name user, and the record says so', () => {
    const r = s.engine.sessionClose(
      person,
      {
        source: 'user',
        memories: [
          { type: 'fact', title: 'Uploads are limited to 50 MB', description: 'The API refuses uploads over 50 MB' },
        ],
      },
      { mode: 'accept' },
    );
    assert.equal(r.items[0].outcome, 'applied');
    assert.equal(s.engine.get('fact/uploads-are-limited-to-50-mb').memory.provenance.source, 'user');
  });
});

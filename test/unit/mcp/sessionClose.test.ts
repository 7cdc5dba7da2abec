import { strict as assert } from 'node:assert';
import { connectInProcess, textOf, type McpHarness } from '../../support/mcp';

const decision = {
  type: 'decision',
  title: 'Use Postgres for the job queue',
  description: 'Background jobs run on Postgres SKIP LOCKED; no separate broker',
  anchors: ['src/jobs/queue.ts'],
};
const webNote = {
  type: 'reference',
  title: 'Cache stampede mitigation',
  description: 'Use request coalescing to avoid a stampede',
  source: 'webpage',
  evidence: ['https://example.com/stampede'],
};

type Plan = {
  mode: string;
  applied: number;
  queued: number;
  items: Array<{ action: string; key: string; risk: string; applies: boolean; outcome?: string }>;
};

describe('MCP session_close', () => {
  let h: McpHarness;
  beforeEach(async () => (h = await connectInProcess()));
  afterEach(() => h.close());

  const stats = () => h.access.use((engine) => engine.stats());

  it('is annotated, reviews without writing, and fences the plan', async () => {
    const { tools } = await h.client.listTools();
    const tool = tools.find((t) => t.name === 'session_close')!;
    assert.equal(tool.annotations?.readOnlyHint, false);
    assert.equal(tool.annotations?.destructiveHint, false);
    assert.ok(tool.outputSchema);

    await h.call('remember', {
      type: 'dead_end',
      title: 'Redis as the job queue',
      description: 'Redis lost jobs on failover',
    });
    const before = await stats();
    const result = await h.call('session_close', { summary: 'Settled the queue.', memories: [decision, webNote] });
    assert.ok(!result.isError, textOf(result));
    const plan = result.structuredContent as Plan;
    assert.equal(plan.mode, 'review');
    assert.deepEqual(
      plan.items.map((i) => `${i.action}:${i.risk}`),
      ['add:medium', 'add:low', 'promote:high'],
      'the decision resembles the dead end',
    );
    assert.deepEqual(await stats(), before, 'review wrote nothing');
    const text = textOf(result);
    assert.match(text, /<lore-data nonce="[0-9a-f]{16}">/);
    assert.match(text, /promote reference\/cache-stampede-mitigation \[high\]/);
    assert.match(text, /resembles the dead end dead_end\/redis-as-the-job-queue/);
  });

  it("accept applies the low-risk items with the agent's provenance and never promotes", async () => {
    const result = await h.call('session_close', { memories: [decision, webNote], mode: 'accept' });
    assert.ok(!result.isError, textOf(result));
    const plan = result.structuredContent as Plan;
    assert.equal(plan.applied, 2);
    assert.equal(plan.queued, 1);
    const got = await h.call('get', { key: 'reference/cache-stampede-mitigation' });
    const memory = (
      got.structuredContent as {
        memory: { status: string; provenance: { source: string; client: string; evidence: string[] } };
      }
    ).memory;
    assert.equal(memory.status, 'quarantined');
    assert.deepEqual(
      [memory.provenance.source, memory.provenance.client, memory.provenance.evidence],
      ['webpage', 'test-agent', ['https://example.com/stampede']],
    );
    const inbox = await h.access.use((engine) => engine.inbox());
    assert.deepEqual(
      inbox.items.map((i) => `${i.kind}:${i.proposal?.action}`),
      ['session:promote'],
    );
    // The agent cannot apply it either: resolving a session proposal needs a person.
    const refused = await h.access.use((engine) => {
      try {
        engine.resolveInbox({ door: 'mcp', name: 'test-agent' }, inbox.items[0].id, 'promote');
        return 'applied';
      } catch (error) {
        return (error as { code: string }).code;
      }
    });
    assert.equal(refused, 'HUMAN_ONLY');
  });

  it('incident sessions apply nothing, even on accept', async () => {
    const result = await h.call('session_close', { kind: 'incident', memories: [decision], mode: 'accept' });
    const plan = result.structuredContent as Plan;
    assert.equal(plan.applied, 0);
    assert.equal(plan.queued, 1);
    assert.equal((await stats()).memories, 0);
  });

  it('answers bad input with what to fix', async () => {
    const result = await h.call('session_close', {
      memories: [{ ...decision, description: 'token ghp_0123456789abcdefghijABCDEFGHIJ0123456789' }],
    });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /memories\[0\]: description looks like it contains/);
  });

  it('refuses fields it does not know by name, rather than dropping them', async () => {
    const before = await stats();
    // `type` for `kind` would otherwise make an incident session routine, and accept would apply it.
    const misspelt = await h.call('session_close', { type: 'incident', memories: [decision], mode: 'accept' });
    assert.equal(misspelt.isError, true);
    assert.match(textOf(misspelt), /Unrecognized key: "type"/);
    const nested = await h.call('session_close', {
      memories: [{ ...decision, anchor: 'src/jobs/queue.ts' }],
      mode: 'accept',
    });
    assert.equal(nested.isError, true);
    assert.match(textOf(nested), /Unrecognized key: "anchor" at memories\[0\]/);
    assert.deepEqual(await stats(), before, 'nothing was written');
  });
});

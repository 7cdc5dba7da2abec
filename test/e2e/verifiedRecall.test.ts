// Recall that says whether each hit still holds, through the built `lore` as a person and an agent
// use it: the CLI (text and --json), the MCP recall tool through the SDK client after listTools
// (so the output schema is enforced), and the session-start hook. Two conventions that contradict
// each other without a fact key, and a decision whose only anchor was deleted.

import { strict as assert } from 'node:assert';
import { rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/cli';
import { sandbox, stdioAgent, type Sandbox } from '../support/processes';

describe('e2e: recall says whether each hit still holds', function () {
  this.timeout(120_000);
  let box: Sandbox;
  const lore = (...args: string[]) => runCli(args, { home: box.home, workspace: box.workspace });

  before(() => {
    box = sandbox();
    mkdirSync(join(box.workspace, 'src/billing'), { recursive: true });
    writeFileSync(join(box.workspace, 'src/billing/exporter.ts'), 'export function exportNightly() {}\n');
    const remember = (...args: string[]) => {
      const r = lore('remember', ...args);
      assert.equal(r.code, 0, r.stderr);
    };
    remember(
      '--type',
      'convention',
      '--key',
      'convention/deploy-tuesday',
      '--title',
      'Deploys go out on Tuesdays',
      '--description',
      'Production deploys happen on Tuesday afternoons',
      '--valid-from',
      '2026-01-05',
    );
    remember(
      '--type',
      'convention',
      '--key',
      'convention/deploy-thursday',
      '--title',
      'We deploy on Thursdays now',
      '--description',
      'Releases moved to Thursday mornings',
      '--valid-from',
      '2026-02-05',
    );
    remember(
      '--type',
      'decision',
      '--key',
      'decision/billing-cron',
      '--title',
      'The billing exporter runs from cron',
      '--description',
      'Nightly batch on the cron host',
      '--anchor',
      'src/billing/exporter.ts',
    );
    rmSync(join(box.workspace, 'src/billing/exporter.ts'));
  });

  it('lore recall ranks the newer of two contradicting conventions first and names each in the other', () => {
    const r = lore('--json', 'recall', 'which day do production deploys happen');
    assert.equal(r.code, 0, r.stderr);
    const [first, second] = r.json.results;
    assert.deepEqual([first.key, second.key], ['convention/deploy-thursday', 'convention/deploy-tuesday']);
    assert.equal(second.verification.state, 'contradicted');
    assert.equal(second.verification.contradicted_by[0].key, 'convention/deploy-thursday');
    assert.equal(first.verification.contradicts[0].key, 'convention/deploy-tuesday');
    const text = lore('recall', 'which day do production deploys happen');
    assert.match(
      text.stdout,
      /convention\/deploy-tuesday[^\n]*\n[^\n]*\n\s+verification: contradicted — do not rely on it \(contradicted by newer convention\/deploy-thursday/,
    );
  });

  it('lore recall says a decision whose anchor was deleted no longer holds', () => {
    const r = lore('--json', 'recall', 'billing exporter cron');
    const hit = r.json.results.find((h: { key: string }) => h.key === 'decision/billing-cron');
    assert.equal(hit.verification.state, 'anchors_gone');
    assert.match(lore('recall', 'billing exporter cron').stdout, /verification: anchors gone — do not rely on it/);
  });

  it('the MCP recall tool carries verification in its structured result, valid against its output schema', async () => {
    const agent = await stdioAgent(box);
    try {
      const { tools } = await agent.client.listTools();
      const schema = tools.find((t) => t.name === 'recall')!.outputSchema as { properties: Record<string, unknown> };
      assert.match(JSON.stringify(schema.properties.results), /"contradicted_by"/);
      const result = await agent.call('recall', { query: 'which day do production deploys happen' });
      assert.ok(!result.isError, JSON.stringify(result.content));
      const hits = (result.structuredContent as { results: Array<{ key: string; verification: any }> }).results;
      assert.equal(hits[0].key, 'convention/deploy-thursday');
      assert.equal(hits[1].verification.state, 'contradicted');
      const text = (result.content as Array<{ text: string }>)[0].text;
      assert.match(text, /verification: contradicted — do not rely on it/);
    } finally {
      await agent.close();
    }
  });

  it('the session-start hook lists what holds first and says why the others do not', () => {
    const r = runCli(['hook', 'session-start'], {
      home: box.home,
      input: JSON.stringify({ cwd: box.workspace, hook_event_name: 'SessionStart' }),
    });
    assert.equal(r.code, 0, r.stderr);
    const context: string = r.json.hookSpecificOutput.additionalContext;
    assert.match(context, /convention\/deploy-thursday[^\n]*\(holds|convention\/deploy-thursday[^\n]*\(unanchored/);
    assert.match(context, /convention\/deploy-tuesday[^\n]*\n\s+verification: contradicted/);
    assert.match(context, /decision\/billing-cron[^\n]*\n\s+verification: anchors gone/);
    assert.ok(context.indexOf('deploy-thursday') < context.indexOf('deploy-tuesday'));
  });

  it("the steward's Inbox offers to supersede the older of the two, naming which gives way", () => {
    assert.equal(lore('steward', 'run').code, 0);
    const inbox = lore('inbox');
    assert.equal(inbox.code, 0, inbox.stderr);
    assert.match(
      inbox.stdout,
      /conflict: [^\n]*\n(?:\s+[^\n]*\n)*\s+actions: supersede the older convention\/deploy-tuesday with convention\/deploy-thursday \(suggested\), dispute both, dismiss/,
    );
  });

  describe('lore hook pre-tool-use', () => {
    const hook = (tool: string, file: string) =>
      runCli(['hook', 'pre-tool-use'], {
        home: box.home,
        input: JSON.stringify({
          cwd: box.workspace,
          hook_event_name: 'PreToolUse',
          tool_name: tool,
          tool_input: { file_path: join(box.workspace, file), old_string: 'a', new_string: 'b' },
        }),
      });

    before(() => {
      mkdirSync(join(box.workspace, 'src/jobs'), { recursive: true });
      writeFileSync(join(box.workspace, 'src/jobs/queue.ts'), 'export function claimNext() {}\n');
      for (const args of [
        ['--type', 'decision', '--key', 'decision/jobs-postgres', '--title', 'Jobs run on Postgres SKIP LOCKED'],
        ['--type', 'dead_end', '--key', 'dead_end/jobs-redis', '--title', 'Redis streams for jobs lost work'],
      ]) {
        const r = lore(
          'remember',
          ...args,
          '--description',
          'about the job queue',
          '--anchor',
          'src/jobs/queue.ts#claimNext',
        );
        assert.equal(r.code, 0, r.stderr);
      }
    });

    it('tells an agent about to edit an anchored file its decisions and dead ends, with their state, in 2 KB', () => {
      const r = hook('Edit', 'src/jobs/queue.ts');
      assert.equal(r.code, 0, r.stderr);
      assert.ok(Buffer.byteLength(r.stdout) <= 2048, `${Buffer.byteLength(r.stdout)} bytes`);
      assert.equal(r.json.hookSpecificOutput.hookEventName, 'PreToolUse');
      const context: string = r.json.hookSpecificOutput.additionalContext;
      assert.match(context, /before you change src\/jobs\/queue\.ts/);
      assert.match(context, /DEAD END dead_end\/jobs-redis: Redis streams for jobs lost work[^\n]*\(holds\)/);
      assert.match(context, /decision\/jobs-postgres: Jobs run on Postgres SKIP LOCKED[^\n]*\(holds\)/);
      assert.ok(context.indexOf('dead_end/jobs-redis') < context.indexOf('decision/jobs-postgres'));
      assert.equal(hook('MultiEdit', 'src/jobs/queue.ts').json.hookSpecificOutput.hookEventName, 'PreToolUse');
    });

    it('prints nothing for a file nothing is anchored to, or for another tool', () => {
      for (const r of [
        hook('Edit', 'README.md'),
        hook('Read', 'src/jobs/queue.ts'),
        hook('Write', '../elsewhere.ts'),
      ]) {
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, '');
      }
    });

    it('names a duplicate of a record that holds: recall (text, JSON, MCP), session start and pre-edit', async () => {
      const twin = lore(
        'remember',
        '--type',
        'decision',
        '--key',
        'decision/jobs-postgres-again',
        '--title',
        'Jobs run on Postgres with SKIP LOCKED',
        '--description',
        'about the job queue',
        '--anchor',
        'src/jobs/queue.ts#claimNext',
      );
      assert.equal(twin.code, 0, twin.stderr);
      const duplicate =
        /decision\/jobs-postgres: Jobs run on Postgres SKIP LOCKED[^\n]*\(holds; duplicates decision\/jobs-postgres-again\)/;
      assert.match(hook('Edit', 'src/jobs/queue.ts').json.hookSpecificOutput.additionalContext, duplicate);
      const start = runCli(['hook', 'session-start'], {
        home: box.home,
        input: JSON.stringify({ cwd: box.workspace, hook_event_name: 'SessionStart' }),
      });
      assert.match(start.json.hookSpecificOutput.additionalContext, duplicate);
      const question = 'jobs on postgres skip locked';
      const hit = lore('--json', 'recall', question).json.results.find(
        (h: { key: string }) => h.key === 'decision/jobs-postgres',
      );
      assert.equal(hit.verification.state, 'holds');
      assert.deepEqual(
        hit.verification.duplicates.map((d: { key: string }) => d.key),
        ['decision/jobs-postgres-again'],
      );
      assert.match(
        lore('recall', question).stdout,
        /decision\/jobs-postgres [^\n]*\n[^\n]*\n\s+verification: holds \([^\n]*duplicates decision\/jobs-postgres-again/,
      );
      const agent = await stdioAgent(box);
      try {
        await agent.client.listTools();
        const result = await agent.call('recall', { query: question });
        const hits = (result.structuredContent as { results: Array<{ key: string; verification: any }> }).results;
        const mcpHit = hits.find((h) => h.key === 'decision/jobs-postgres')!;
        assert.deepEqual(
          mcpHit.verification.duplicates.map((d: { key: string }) => d.key),
          ['decision/jobs-postgres-again'],
        );
      } finally {
        await agent.close();
      }
    });
  });
});

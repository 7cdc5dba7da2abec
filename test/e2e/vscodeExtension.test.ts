// The bundled extension (dist/extension.js) activated in plain Node against a fake `vscode`
// module: what package.json contributes is what activation registers; activation reads nothing;
// Restricted Mode opens nothing; the MCP definition reaches a real owner (a lore serve this window
// starts, or one already running); views show a real store;
// reindexing fills Runbooks & Docs and can be paused;
// a save that changes anchored code turns into drift diagnostics with quick fixes.

import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ExtensionContext } from 'vscode';
import { storePaths } from '../../src/host/dataDir';
import { keyFor, type MemoryType } from '../../src/engine';
import {
  createFakeVscode,
  freshRequire,
  installFakeVscode,
  McpHttpServerDefinition,
  McpStdioServerDefinition,
  Uri,
  type FakeVscode,
  type TreeItem,
} from '../support/fakeVscode';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeTinyModel } from '../../scripts/makeTinyModel';
import { httpAgent, startServe, text } from '../support/processes';
import { tempDir } from '../support/store';

const ROOT = resolve(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const contributed = {
  commands: (pkg.contributes.commands as { command: string }[]).map((c) => c.command),
  views: Object.values(pkg.contributes.views as Record<string, { id: string }[]>)
    .flat()
    .map((v) => v.id),
  containers: (pkg.contributes.viewsContainers.activitybar as { id: string }[]).map((c) => c.id),
  settings: Object.keys(pkg.contributes.configuration.properties),
  mcp: (pkg.contributes.mcpServerDefinitionProviders as { id: string }[]).map((p) => p.id),
};

interface Extension {
  activate(context: ExtensionContext): void;
  deactivate(): Promise<void>;
}

function memento() {
  const values = new Map<string, unknown>();
  return {
    get: (key: string, fallback?: unknown) => (values.has(key) ? values.get(key) : fallback),
    update: async (key: string, value: unknown) => void values.set(key, value),
    keys: () => [...values.keys()],
  };
}

describe('VS Code extension, bundled, against a fake vscode', function () {
  let fake: FakeVscode;
  let ext: Extension;
  let context: {
    subscriptions: { dispose(): unknown }[];
    workspaceState: ReturnType<typeof memento>;
    extensionPath: string;
  };
  let root: string;
  let home: string;
  let workspace: string;

  beforeEach(() => {
    root = tempDir('lore-vscode-');
    home = join(root, 'home');
    workspace = join(root, 'repo');
    mkdirSync(home);
    cpSync(join(ROOT, 'test', 'fixtures', 'workspace'), workspace, { recursive: true });
    mkdirSync(join(workspace, '.git'));
    fake = createFakeVscode();
    fake.workspace.folders = [workspace];
    fake.settings['lore.dataDir'] = home;
    fake.settings['lore.embedding.enabled'] = false;
    installFakeVscode(fake);
    ext = freshRequire<Extension>(join(ROOT, 'dist', 'extension.js'));
    context = { subscriptions: [], workspaceState: memento(), extensionPath: ROOT };
  });

  afterEach(async () => {
    await ext.deactivate();
    for (const d of context.subscriptions) d.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  const activate = () => ext.activate(context as unknown as ExtensionContext);
  const tree = (id: string) => fake.registered.treeViews.get(id)!.treeDataProvider;
  const run = (id: string, ...args: unknown[]) => fake.registered.commands.get(id)!(...args) as Promise<void>;
  const pickWhere = (test: (item: Record<string, unknown>) => boolean) => (items: unknown[]) =>
    (items as Record<string, unknown>[]).find(test);
  const errors = () => fake.registered.messages.filter((m) => m.level === 'error').map((m) => m.text);

  it('registers every contributed command, view and the MCP provider at activation, and nothing else', () => {
    activate();
    assert.deepEqual([...fake.registered.commands.keys()].sort(), [...contributed.commands].sort());
    assert.deepEqual([...fake.registered.treeViews.keys()].sort(), [...contributed.views].sort());
    assert.deepEqual(contributed.containers, ['lore']);
    assert.deepEqual(Object.keys(pkg.contributes.views), ['lore'], 'every view lives in the Lore container');
    assert.deepEqual([...fake.registered.mcpProviders.keys()], contributed.mcp);
    assert.equal(fake.registered.statusItems.length, 1);
    assert.ok(fake.registered.contentProviders.has('lore-memory'));
  });

  it('names only contributed commands and views in menus and welcome content', () => {
    activate();
    const menus = pkg.contributes.menus as Record<string, { command: string }[]>;
    for (const [where, entries] of Object.entries(menus)) {
      for (const entry of entries)
        assert.ok(
          contributed.commands.includes(entry.command),
          `${where} names ${entry.command}, which is not contributed`,
        );
    }
    for (const welcome of pkg.contributes.viewsWelcome as { view: string; contents: string }[]) {
      assert.ok(contributed.views.includes(welcome.view), `welcome content for unknown view ${welcome.view}`);
      for (const [, id] of welcome.contents.matchAll(/\(command:([\w.]+)\)/g)) {
        if (id.startsWith('lore.'))
          assert.ok(fake.registered.commands.has(id), `welcome content links ${id}, which is not registered`);
      }
    }
    for (const view of contributed.views) {
      assert.ok(
        (pkg.contributes.viewsWelcome as { view: string }[]).some((w) => w.view === view),
        `${view} has no welcome content for when it is empty`,
      );
    }
  });

  it('does no I/O at activation: the data folder stays empty until first use', async () => {
    activate();
    assert.deepEqual(readdirSync(home), []);
    // The MCP server list is offered without opening the store.
    const defs = (await fake.registered.mcpProviders
      .get('lore.mcpServers')!
      .provideMcpServerDefinitions()) as unknown[];
    assert.equal(defs.length, 1);
    assert.deepEqual(readdirSync(home), []);
    for (const key of fake.registered.settingsRead)
      assert.ok(
        contributed.settings.includes(key),
        `the extension reads ${key}, which package.json does not contribute`,
      );
  });

  it('offers "Show Log" when activation fails, and Show Log still works', async () => {
    fake.breaking.add('createTreeView');
    activate();
    const failure = fake.registered.messages.find((m) => m.level === 'error');
    assert.match(failure?.text ?? '', /Lore failed to start: createTreeView is broken/);
    assert.deepEqual(failure?.items, ['Show Log']);
    await run('lore.showLog');
    assert.equal(fake.registered.contexts.get('log.shown'), true);
  });

  it(
    'in an untrusted workspace opens no store, offers no MCP server ' + 'and leaves the views to their welcome',
    async () => {
      fake.workspace.trusted = false;
      activate();
      assert.deepEqual(await fake.registered.mcpProviders.get('lore.mcpServers')!.provideMcpServerDefinitions(), []);
      assert.deepEqual(await tree('lore.decisions').getChildren(), []);
      fake.answers.push('anything');
      await run('lore.recall');
      assert.match(errors().join('\n'), /Restricted Mode/);
      await run('lore.reindex');
      // A definition the editor kept from a trusted session starts nothing now.
      const provider = fake.registered.mcpProviders.get('lore.mcpServers')!;
      assert.equal(
        await provider.resolveMcpServerDefinition!(
          new McpHttpServerDefinition('Lore', Uri.parse('http://127.0.0.1:1/mcp')),
        ),
        undefined,
      );
      assert.equal(
        await provider.resolveMcpServerDefinition!(
          new McpStdioServerDefinition('Lore', process.execPath, ['cli.js', '--workspace', workspace, 'mcp']),
        ),
        undefined,
      );
      assert.deepEqual(readdirSync(home), [], 'nothing was created in the data folder');
    },
  );

  it(
    'points VS Code’s agents at this window’s owner with its token, ' + 'and offers stdio instead when set to',
    async () => {
      activate();
      const provider = fake.registered.mcpProviders.get('lore.mcpServers')!;
      const [def] = (await provider.provideMcpServerDefinitions()) as McpHttpServerDefinition[];
      assert.ok(def instanceof McpHttpServerDefinition);
      const resolved = (await provider.resolveMcpServerDefinition!(def)) as McpHttpServerDefinition;
      const owner = JSON.parse(readFileSync(storePaths(workspace, home).owner, 'utf8'));
      assert.notEqual(owner.pid, process.pid, 'the store is not opened in the extension host');
      assert.equal(owner.door, 'lore serve', "this window started the store's owner process");
      assert.equal(resolved.uri.toString(), `http://127.0.0.1:${owner.port}/mcp`);
      assert.equal(
        resolved.headers.Authorization,
        `Bearer ${owner.mcp_token}`,
        "agents get the MCP token, never the owner's full one",
      );
      // A real MCP client gets through with exactly what the definition carries.
      const agent = await httpAgent(resolved.uri.toString(), owner.mcp_token, 'copilot-test');
      try {
        const result = await agent.call('recall', { query: 'anything at all' });
        assert.ok(!result.isError, text(result));
      } finally {
        await agent.close();
      }
      const [again] = (await provider.provideMcpServerDefinitions()) as McpHttpServerDefinition[];
      assert.equal(again.uri.toString(), resolved.uri.toString(), 'once known, the owner is offered directly');
      assert.deepEqual(
        again.headers,
        {},
        'a listed definition (which the editor may keep) carries no token; resolve adds it',
      );
      assert.equal(
        ((await provider.resolveMcpServerDefinition!(again)) as McpHttpServerDefinition).headers.Authorization,
        `Bearer ${owner.mcp_token}`,
      );
      fake.settings['lore.mcp.transport'] = 'stdio';
      const [stdio] = (await provider.provideMcpServerDefinitions()) as {
        command: string;
        args: string[];
        env: Record<string, string>;
      }[];
      assert.deepEqual(stdio.args, [join(ROOT, 'dist', 'cli.js'), '--workspace', workspace, 'mcp']);
      assert.equal(stdio.env.LORE_HOME, home);
      fake.settings['lore.mcp.enabled'] = false;
      assert.deepEqual(await provider.provideMcpServerDefinitions(), []);
    },
  );

  it('in a multi-root workspace, each folder’s MCP definition reaches that folder’s store, namesakes too', async () => {
    const other = join(root, 'other', 'repo');
    mkdirSync(join(other, '.git'), { recursive: true });
    fake.workspace.folders = [workspace, other];
    activate();
    const provider = fake.registered.mcpProviders.get('lore.mcpServers')!;
    const defs = (await provider.provideMcpServerDefinitions()) as McpHttpServerDefinition[];
    assert.deepEqual(
      defs.map((d) => d.label),
      ['Lore (repo 1)', 'Lore (repo 2)'],
    );
    const resolved = (await provider.resolveMcpServerDefinition!(defs[1])) as McpHttpServerDefinition;
    assert.ok(!existsSync(storePaths(workspace, home).owner), 'the first folder’s store was not opened');
    const owner = JSON.parse(readFileSync(storePaths(other, home).owner, 'utf8'));
    assert.equal(resolved.uri.toString(), `http://127.0.0.1:${owner.port}/mcp`);
  });

  it('downloads the embedding model only after the modal yes, into the data folder', async () => {
    const published = makeTinyModel(join(root, 'published'), { name: 'tiny-bert', dtypes: ['fp32', 'q8'] });
    const requests: string[] = [];
    const hub = createServer((req, res) => {
      requests.push(req.url ?? '');
      const file = join(published.path, (req.url ?? '').replace(/^\/acme\/tiny-bert\/resolve\/main\//, ''));
      if (!existsSync(file)) return void res.writeHead(404).end();
      const body = readFileSync(file);
      res.writeHead(200, { 'content-length': body.length }).end(body);
    });
    await new Promise<void>((done) => hub.listen(0, '127.0.0.1', done));
    const previousHost = process.env.LORE_MODEL_HOST;
    process.env.LORE_MODEL_HOST = `http://127.0.0.1:${(hub.address() as AddressInfo).port}`;
    try {
      fake.settings['lore.embedding.model'] = 'acme/tiny-bert';
      activate();
      fake.answers.push(undefined); // the modal is dismissed
      await run('lore.downloadModel');
      assert.deepEqual(requests, [], 'no yes, no fetch');
      assert.ok(
        fake.registered.messages.some((m) => m.modal && /Download the embedding model acme\/tiny-bert/.test(m.text)),
      );
      fake.answers.push('Download');
      await run('lore.downloadModel');
      assert.deepEqual(errors(), []);
      assert.equal(requests.length, 4);
      assert.deepEqual(readdirSync(join(home, 'models', 'acme')), ['tiny-bert']);
      assert.ok(existsSync(join(home, 'models', 'acme', 'tiny-bert', 'onnx', 'model_quantized.onnx')));
    } finally {
      if (previousHost === undefined) delete process.env.LORE_MODEL_HOST;
      else process.env.LORE_MODEL_HOST = previousHost;
      await new Promise((done) => hub.close(done));
    }
  });

  it('promotes a quarantined record only after the modal yes, as a confirmed person', async () => {
    activate();
    const provider = fake.registered.mcpProviders.get('lore.mcpServers')!;
    const [def] = (await provider.provideMcpServerDefinitions()) as McpHttpServerDefinition[];
    const resolved = (await provider.resolveMcpServerDefinition!(def)) as McpHttpServerDefinition;
    const agent = await httpAgent(
      resolved.uri.toString(),
      resolved.headers.Authorization.replace(/^Bearer /, ''),
      'copilot-test',
    );
    try {
      const saved = await agent.call('remember', {
        type: 'reference',
        title: 'Cache stampede mitigation',
        description: 'Use request coalescing to avoid a stampede',
        source: 'webpage',
      });
      assert.ok(!saved.isError, text(saved));
    } finally {
      await agent.close();
    }
    const [waiting] = await tree('lore.inbox').getChildren();
    assert.equal(
      (tree('lore.inbox').getTreeItem(waiting) as TreeItem).contextValue,
      'memory.quarantined canRetract canPromote',
    );
    fake.answers.push(undefined); // the modal is dismissed
    await run('lore.promote', waiting);
    assert.equal(
      (tree('lore.inbox').getTreeItem((await tree('lore.inbox').getChildren())[0]) as TreeItem).contextValue,
      'memory.quarantined canRetract canPromote',
      'no yes, no promotion',
    );
    fake.answers.push('Promote');
    await run('lore.promote', waiting);
    assert.deepEqual(errors(), []);
    assert.deepEqual(await tree('lore.inbox').getChildren(), []);
  });

  it('resolves a session proposal from the Inbox after a modal that shows the candidate’s text', async () => {
    activate();
    const provider = fake.registered.mcpProviders.get('lore.mcpServers')!;
    const [def] = (await provider.provideMcpServerDefinitions()) as McpHttpServerDefinition[];
    const resolved = (await provider.resolveMcpServerDefinition!(def)) as McpHttpServerDefinition;
    const agent = await httpAgent(
      resolved.uri.toString(),
      resolved.headers.Authorization.replace(/^Bearer /, ''),
      'copilot-test',
    );
    try {
      const closed = await agent.call('session_close', {
        memories: [
          {
            type: 'reference',
            title: 'Cache stampede mitigation',
            description: 'Use request coalescing to avoid a stampede',
            body: 'Coalesce concurrent misses behind one fetch.',
            source: 'webpage',
          },
        ],
        mode: 'accept',
      });
      assert.ok(!closed.isError, text(closed));
    } finally {
      await agent.close();
    }
    const proposal = (await tree('lore.inbox').getChildren()).find((n) => (n as { kind: string }).kind === 'inbox');
    assert.ok(proposal, 'the promote proposal waits in the Inbox');
    fake.answers.push(
      pickWhere((i) => i.label === 'promote'),
      'promote',
    );
    await run('lore.resolveInboxItem', proposal);
    assert.deepEqual(errors(), []);
    const confirm = fake.registered.messages.find((m) => m.modal);
    assert.match(
      confirm?.detail ?? '',
      /“Cache stampede mitigation” — Use request coalescing to avoid a stampede\n\nCoalesce concurrent misses behind one fetch\.\n\nSource: webpage/,
    );
    assert.deepEqual(await tree('lore.inbox').getChildren(), [], 'promoted: nothing waits any more');
  });

  it('joins a store another Lore process owns, and fires the change event when that owner goes away', async () => {
    const serve = await startServe({ home, workspace, env: { ...process.env, LORE_HOME: home, LORE_EMBED: 'off' } });
    try {
      activate();
      const provider = fake.registered.mcpProviders.get('lore.mcpServers')!;
      const [def] = (await provider.provideMcpServerDefinitions()) as McpHttpServerDefinition[];
      const resolved = (await provider.resolveMcpServerDefinition!(def)) as McpHttpServerDefinition;
      assert.equal(resolved.uri.toString(), serve.url);
      assert.equal(resolved.headers.Authorization, `Bearer ${serve.mcpToken}`);
      const changed = new Promise<void>((done) => provider.onDidChangeMcpServerDefinitions!(() => done()));
      assert.equal(await serve.stop(), 0);
      await changed;
      // The next use finds no owner and this window starts one of its own.
      const [next] = (await provider.provideMcpServerDefinitions()) as McpHttpServerDefinition[];
      const taken = (await provider.resolveMcpServerDefinition!(next)) as McpHttpServerDefinition;
      const owner = JSON.parse(readFileSync(storePaths(workspace, home).owner, 'utf8'));
      assert.notEqual(owner.pid, process.pid);
      assert.equal(owner.door, 'lore serve');
      assert.equal(taken.uri.toString(), `http://127.0.0.1:${owner.port}/mcp`);
    } finally {
      await serve.stop();
    }
  });

  it('shows remembered records in the views; dispute, copy key and forget from the context menu', async () => {
    activate();
    const remember = async (type: string, title: string, description: string, anchors = '') => {
      fake.answers.push(
        pickWhere((i) => i.type === type),
        title,
        keyFor(type as MemoryType, title),
        description,
        'body text',
        anchors,
      );
      await run('lore.remember');
    };
    await remember('decision', 'Queue jobs in Postgres', 'Jobs use SKIP LOCKED rather than a broker');
    await remember('dead_end', 'Redis streams for jobs', 'Tried and dropped: lost jobs on failover');
    assert.deepEqual(errors(), []);
    const decisions = await tree('lore.decisions').getChildren();
    assert.equal(decisions.length, 1);
    const item = tree('lore.decisions').getTreeItem(decisions[0]) as TreeItem;
    assert.equal(item.label, 'Queue jobs in Postgres');
    assert.equal(item.description, 'Jobs use SKIP LOCKED rather than a broker');
    assert.equal(item.contextValue, 'memory.active canDeprecate canDispute canRetract canSupersede');
    assert.match((item.tooltip as { value: string }).value, /status \*\*active\*\* · basis \*\*declared\*\*/);
    const deadEnds = await tree('lore.deadEnds').getChildren();
    assert.equal((tree('lore.deadEnds').getTreeItem(deadEnds[0]) as TreeItem).label, 'Redis streams for jobs');
    assert.deepEqual(await tree('lore.inbox').getChildren(), []);

    // Dispute through the context menu: the reason is asked, the view shows the new status.
    fake.answers.push('the broker came back');
    await run('lore.dispute', decisions[0]);
    const [disputed] = await tree('lore.decisions').getChildren();
    assert.equal(
      (tree('lore.decisions').getTreeItem(disputed) as TreeItem).contextValue,
      'memory.disputed canDeprecate canRetract canSupersede',
    );

    // Copy key from the context menu.
    await run('lore.copyKey', disputed);
    assert.equal(fake.registered.contexts.get('clipboard'), 'decision/queue-jobs-in-postgres');

    // Forget asks a modal confirmation; the record is gone from the view and the audit chain holds.
    fake.answers.push('Forget');
    await run('lore.forget', disputed);
    assert.deepEqual(await tree('lore.decisions').getChildren(), []);
    await run('lore.verifyAudit');
    assert.deepEqual(errors(), []);
    assert.match(fake.registered.messages.at(-1)!.text, /^Lore audit log intact: \d+ events/);
  });

  it('recalls as you type: memories and docs in one list, previewed beside, opened on accept', async () => {
    activate();
    fake.answers.push(
      pickWhere((i) => i.type === 'dead_end'),
      'Redis streams for the job queue',
      'dead_end/redis-streams-for-the-job-queue',
      'Tried and dropped: jobs were lost on failover',
      'details',
      '',
    );
    await run('lore.remember');
    fake.answers.push(pickWhere((i) => i.full === false));
    await run('lore.reindex');
    const created = fake.nextQuickPick();
    const done = run('lore.recall');
    const pick = await created;
    pick.type('job queue failover');
    const items = (await pick.itemsWhere((list) => list.length > 0)) as {
      label: string;
      description: string;
      hit: { record: string };
    }[];
    assert.match(items[0].label, /^\$\(circle-slash\) Redis streams for the job queue$/);
    assert.match(items[0].description, /^dead_end\/redis-streams-for-the-job-queue · active · declared/);
    assert.ok(
      items.some((i) => i.hit.record === 'doc'),
      `docs are recalled too: ${items.map((i) => i.label).join(', ')}`,
    );
    pick.highlight(items[0]);
    pick.accept(items[0]);
    await done;
    const [preview, opened] = fake.registered.shown;
    assert.equal(preview.uri.scheme, 'lore-memory');
    assert.deepEqual(
      [
        (preview.options as { preserveFocus: boolean }).preserveFocus,
        (opened.options as { preserveFocus: boolean }).preserveFocus,
      ],
      [true, false],
    );
    // The memory document renders the record.
    const docs = fake.registered.contentProviders.get('lore-memory') as {
      provideTextDocumentContent(uri: unknown): Promise<string>;
    };
    assert.match(
      await docs.provideTextDocumentContent(opened.uri),
      /^# Redis streams for the job queue\n\n> Tried and dropped/,
    );
  });

  it('reindexes from the command into Runbooks & Docs, and pauses and resumes', async () => {
    activate();
    fake.answers.push(pickWhere((i) => i.full === false));
    await run('lore.reindex');
    assert.deepEqual(errors(), []);
    const groups = await tree('lore.docs').getChildren();
    const labels = groups.map((g) => (tree('lore.docs').getTreeItem(g) as TreeItem).label);
    assert.ok(
      labels.includes('Runbooks') && labels.includes('ADRs'),
      `kinds shown by their names: ${labels.join(', ')}`,
    );
    const runbooks = groups[labels.indexOf('Runbooks')];
    const docs = await tree('lore.docs').getChildren(runbooks);
    assert.ok(docs.length > 0);
    assert.equal((tree('lore.docs').getTreeItem(docs[0]) as TreeItem).command?.command, 'vscode.open');

    await run('lore.pauseIndexing');
    assert.equal(fake.registered.contexts.get('lore.indexingPaused'), true);
    fake.answers.push(pickWhere((i) => i.full === true));
    await run('lore.reindex');
    assert.ok(
      fake.registered.messages.some((m) => m.text === 'Lore indexing is paused.' && m.items.includes('Resume')),
    );
    await run('lore.resumeIndexing');
    assert.equal(fake.registered.contexts.get('lore.indexingPaused'), false);
  });

  it('a save while .lore/config.json does not parse is logged, not thrown at the editor', async () => {
    fake.settings['lore.drift.onSave'] = false;
    activate();
    fake.answers.push(pickWhere((i) => i.full === false));
    await run('lore.reindex');
    mkdirSync(join(workspace, '.lore'), { recursive: true });
    const config = join(workspace, '.lore', 'config.json');
    writeFileSync(config, '{ "index": ');
    fake.events.save.fire(fake.document(config));
    assert.ok(
      fake.registered.logs.some((l) =>
        /^\[warn\] .*not indexing after saving \.lore\/config\.json: .*not valid JSON/.test(l),
      ),
      fake.registered.logs.join('\n'),
    );
  });

  it(
    'after a save that changes anchored code: a warning on the ' + 'memory, a hint on the file, and quick fixes',
    async () => {
      mkdirSync(join(workspace, 'src'));
      const file = join(workspace, 'src', 'queue.ts');
      writeFileSync(file, 'export function enqueue(job: string): void {\n  db.insert(job);\n}\n');
      activate();
      fake.answers.push(
        pickWhere((i) => i.type === 'decision'),
        'Jobs are enqueued in one insert',
        'decision/jobs-are-enqueued-in-one-insert',
        'enqueue writes the job row and nothing else',
        'body',
        'src/queue.ts#enqueue',
      );
      await run('lore.remember');
      assert.deepEqual(errors(), []);

      writeFileSync(
        file,
        'export function enqueue(job: string): void {\n  db.insert(job);\n  broker.publish(job);\n}\n',
      );
      const settled = fake.diagnosticsWhere((all) => [...all.values()].flat().some((d) => d.severity === 1));
      fake.events.save.fire(fake.document(file));
      await settled;
      const all = new Map(fake.registered.diagnostics.flatMap((c) => [...c.entries]));
      const memoryDoc = [...all.keys()].find((uri) => uri.startsWith('lore-memory://'));
      assert.ok(memoryDoc, `a diagnostic on the memory's document; got ${[...all.keys()].join(', ')}`);
      const [warning] = all.get(memoryDoc)!;
      assert.equal(warning.message, '`enqueue` in src/queue.ts changed since this decision was last checked');
      const hint = all.get(`file://${file}`)?.[0];
      assert.equal(hint?.severity, 2);
      assert.match(hint!.message, /^1 decision references this file \(1 drifted\)$/);

      // The document the warning is on, as VS Code hands it to the provider.
      const onMemory = { uri: { toString: () => memoryDoc } };
      const provider = fake.registered.codeActionProviders[0] as {
        provideCodeActions(
          d: unknown,
          r: unknown,
          c: unknown,
        ): { title: string; command: { command: string; arguments: unknown[] } }[];
      };
      const fixes = provider.provideCodeActions(onMemory, {}, { diagnostics: [warning] }).map((a) => a.command.command);
      assert.deepEqual(fixes, ['lore.reverify', 'lore.supersede', 'lore.dispute', 'lore.openAnchor']);
      const drift = await tree('lore.drift').getChildren();
      assert.equal(drift.length, 1);

      // Re-verify (the first quick fix) clears the warning.
      const reverify = provider.provideCodeActions(onMemory, {}, { diagnostics: [warning] })[0].command;
      await run(reverify.command, ...reverify.arguments);
      assert.deepEqual(errors(), []);
      const after = new Map(fake.registered.diagnostics.flatMap((c) => [...c.entries]));
      assert.ok(![...after.values()].flat().some((d) => d.severity === 1), 'no drift warning remains');
      assert.ok(existsSync(storePaths(workspace, home).database));
    },
  );
});

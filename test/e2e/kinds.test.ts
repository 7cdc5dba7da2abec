// A person's kinds through the built CLI on a real workspace and SQLite store: `lore kind set`
// writes .lore/kinds and the index, list, and recall's kind filter show the kind at once; an
// unknown kind or a glob that matches nothing is refused with nothing written; remove gives the
// classifier's kind back. Then with `lore serve` as the owner: the CLI's writes reach it, a
// .lore/kinds changed on disk (a pull) is applied from file events, and the Runbooks & Docs
// tree's model, read over the owner's /rpc as the editor reads it, counts what `lore index --json`
// reports in by_kind.

import { strict as assert } from 'node:assert';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { remoteApi } from '../../src/host/engineApi';
import { docGroups, groupChildren, type LoreNode } from '../../src/vscode/views/treeModel';
import { makeSpace, ok, runCliAsync, type CliSpace } from '../support/cli';
import { sandbox, startServe, type Sandbox, type ServeProcess } from '../support/processes';

const FILES: Record<string, string> = {
  'README.md': '# Billing service\n\nThe service that sends invoices.\n',
  'docs/ops/restore-ledger.md':
    '# Restoring the ledger\n\nThe ledger keeps invoices in a write-ahead log with daily snapshots.\n\n' +
    '## Storage\n\nSnapshots live in the archive bucket.\n',
  'docs/ops/rotate-keys.md': '# Key rotation\n\nHow signing keys age and why they rotate yearly.\n',
  'docs/adr/0001-use-postgres.md':
    '# 1. Use Postgres\n\n## Status\n\nAccepted\n\n## Context\n\nJobs.\n\n## Decision\n\nPostgres.\n\n' +
    '## Consequences\n\nOne database.\n',
};

function seed(workspace: string): void {
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(join(workspace, path, '..'), { recursive: true });
    writeFileSync(join(workspace, path), text);
  }
}

const kindsFile = (workspace: string) => join(workspace, '.lore', 'kinds');

describe('lore kind: a person’s kinds, shared in .lore/kinds', function () {
  this.timeout(120_000);
  let space: CliSpace;
  before(() => {
    space = makeSpace('lore-kinds-');
    seed(space.workspace);
  });
  after(() => space.cleanup());

  it('set → index → list → recall with a kind filter → remove, each as a person types it', () => {
    const first = ok(space.lore('index', '--json')).json;
    assert.equal(first.status.by_kind.runbook, undefined, 'the classifier calls no page a runbook here');
    const guides = first.status.by_kind.guide;

    const set = ok(space.lore('kind', 'set', 'docs/ops/restore-ledger.md', 'Runbooks', '--json')).json;
    assert.equal(set.kind, 'runbook');
    assert.equal(set.files, 1);
    assert.equal(set.status.by_kind.runbook, 1, 'the store shows the kind when the command returns');
    assert.match(readFileSync(kindsFile(space.workspace), 'utf8'), /^docs\/ops\/restore-ledger\.md runbook$/m);

    const index = ok(space.lore('index', '--json')).json;
    assert.equal(index.summary.indexed, 0, 'nothing left to re-read');
    assert.equal(index.status.by_kind.runbook, 1, 'the next index keeps the person’s kind');
    assert.equal(index.status.by_kind.guide ?? 0, guides - 1, 'a kind no document has any more is left out of by_kind');

    const list = ok(space.lore('kind', 'list', '--json')).json;
    assert.deepEqual(
      list.rules.map((r: { glob: string; kind: string; matches: number; decides: number }) => [
        r.glob,
        r.kind,
        r.matches,
        r.decides,
      ]),
      [['docs/ops/restore-ledger.md', 'runbook', 1, 1]],
    );
    assert.match(ok(space.lore('kind', 'list')).stdout, /docs\/ops\/restore-ledger\.md → runbook/);

    const runbooks = ok(space.lore('recall', 'ledger snapshots', '--kind', 'runbook', '--json')).json;
    assert.deepEqual(
      runbooks.results.map((r: { path: string }) => r.path),
      ['docs/ops/restore-ledger.md'],
    );

    const removed = ok(space.lore('kind', 'remove', 'docs/ops/restore-ledger.md', '--json')).json;
    assert.equal(removed.kind, null);
    assert.equal(removed.status.by_kind.runbook, undefined);
    assert.equal(removed.status.by_kind.guide, guides);
    assert.doesNotMatch(readFileSync(kindsFile(space.workspace), 'utf8'), /restore-ledger/);
    const none = ok(space.lore('recall', 'ledger snapshots', '--kind', 'runbook', '--json')).json;
    assert.deepEqual(none.results, []);
  });

  it('refuses an unknown kind and a glob that matches no file, naming the kinds, and writes nothing', () => {
    ok(space.lore('kind', 'set', 'docs/adr/**', 'ADR'));
    const before = readFileSync(kindsFile(space.workspace));
    const byKind = ok(space.lore('index', '--json')).json.status.by_kind;

    const unknown = space.lore('kind', 'set', 'docs/ops/**', 'runbok');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /unknown kind "runbok"; the kinds are adr, rfc, runbook, postmortem, changelog/);
    const empty = space.lore('kind', 'set', 'docs/operations/**', 'runbook');
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /"docs\/operations\/\*\*" matches no file Lore indexes in this workspace/);
    const noRule = space.lore('kind', 'remove', 'docs/ops/**');
    assert.equal(noRule.code, 1);
    assert.match(noRule.stderr, /has no rule for "docs\/ops\/\*\*"/);

    assert.deepEqual(readFileSync(kindsFile(space.workspace)), before, '.lore/kinds is as it was');
    assert.deepEqual(ok(space.lore('index', '--json')).json.status.by_kind, byKind, 'and so is the index');
  });

  it('reports a bad line of a hand-edited .lore/kinds with its number, and indexes with the rest', () => {
    writeFileSync(kindsFile(space.workspace), '# ours\ndocs/ops/** runbok\ndocs/ops/rotate-keys.md runbook\n');
    const run = ok(space.lore('index'));
    assert.match(run.stdout, /\.lore\/kinds line 2: unknown kind "runbok"[^\n]*\(ignored\)/);
    const json = ok(space.lore('index', '--json')).json;
    assert.equal(json.status.by_kind.runbook, 1);
    assert.match(ok(space.lore('kind', 'list')).stdout, /line 2: unknown kind "runbok"/);
  });
});

/** Resolves at the owner's next log line matching `pattern`. */
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

/**
 * The CLI against the owner's workspace, without blocking this process: a blocked event loop
 * misses the owner closing an idle keep-alive socket, and the tree's next request meets it closed.
 */
async function lore(box: Sandbox, args: string[]) {
  return ok(await runCliAsync(['--json', ...args], { home: box.home, workspace: box.workspace })).json;
}

describe('lore kind with a running owner, and the Runbooks & Docs tree', function () {
  this.timeout(120_000);
  let box: Sandbox;
  let serve: ServeProcess;
  before(async () => {
    box = sandbox();
    seed(box.workspace);
    serve = await startServe(box);
  });
  after(async () => {
    await serve.stop();
  });

  /** The tree's kind groups as the editor builds them, over the owner's /rpc: group → [count, documents listed]. */
  async function tree(): Promise<Record<string, [number, number]>> {
    const api = remoteApi(new URL('/rpc', serve.url).toString(), serve.token);
    const groups = (await docGroups(api, box.workspace)).filter(
      (g): g is Extract<LoreNode, { kind: 'group' }> => g.kind === 'group' && !g.group.startsWith('memory:'),
    );
    const out: Record<string, [number, number]> = {};
    for (const g of groups) out[g.group] = [g.count, (await groupChildren(api, box.workspace, g.group)).length];
    return out;
  }

  const counted = (byKind: Record<string, number>) =>
    Object.fromEntries(Object.entries(byKind).map(([kind, n]) => [kind, [n, n]]));

  it('takes the CLI’s set through the owner, and the tree counts what lore index --json counts', async () => {
    await lore(box, ['index']);
    const set = await lore(box, ['kind', 'set', 'docs/ops/**', 'runbook']);
    assert.equal(set.status.by_kind.runbook, 2);
    const { status } = await lore(box, ['index']);
    assert.equal(status.by_kind.runbook, 2);
    assert.deepEqual(await tree(), counted(status.by_kind));
    const api = remoteApi(new URL('/rpc', serve.url).toString(), serve.token);
    const runbooks = await groupChildren(api, box.workspace, 'runbook');
    assert.deepEqual(
      runbooks.map((n) => (n.kind === 'doc' ? [n.doc.path, n.doc.kind_rule] : n.kind)),
      [
        ['docs/ops/restore-ledger.md', 'docs/ops/**'],
        ['docs/ops/rotate-keys.md', 'docs/ops/**'],
      ],
    );
  });

  it('applies a .lore/kinds changed on disk (a pull) from file events, with no index command', async () => {
    const applied = nextLine(serve.child, /\.lore\/kinds: 2 document\(s\) re-classified/);
    writeFileSync(kindsFile(box.workspace), 'docs/ops/** runbook\ndocs/ops/rotate-keys.md guide\nREADME.md rfc\n');
    await applied;
    const doctor = await lore(box, ['doctor']);
    assert.equal(doctor.stats.index.by_kind.runbook, 1);
    assert.equal(doctor.stats.index.by_kind.rfc, 1);
    const { status } = await lore(box, ['index']);
    assert.deepEqual(status.by_kind, doctor.stats.index.by_kind);
    assert.deepEqual(await tree(), counted(status.by_kind));
    assert.ok(existsSync(kindsFile(box.workspace)));
  });
});

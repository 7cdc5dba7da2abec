// The Drift view reads findings before it tells VS Code to redraw: told to redraw, VS Code forgets
// the view's rows until it has new ones, so a row's button clicked during a slow read reached its
// command with no row. Logic only (a fake `vscode`); the click itself is in the editor tier.

import { strict as assert } from 'node:assert';
import { createFakeVscode, installFakeVscode } from '../../../support/fakeVscode';
import type { DriftFinding } from '../../../../src/vscode/contract';

const FOLDER = '/repo';
const finding = { id: 'f1', state: 'changed', source: { kind: 'doc', path: 'docs/a.md' }, reference: { raw: 'run()' } };

describe('VS Code Drift view refresh', () => {
  it('redraws only once the findings are read, and draws them without reading again', async () => {
    installFakeVscode(createFakeVscode());

    const { LoreTreeProvider } =
      require('../../../../src/vscode/views/provider') as typeof import('../../../../src/vscode/views/provider');

    const { DriftTracker } =
      require('../../../../src/vscode/drift/tracker') as typeof import('../../../../src/vscode/drift/tracker');
    const pending: ((findings: DriftFinding[]) => void)[] = [];
    let reads = 0;
    const api = {
      driftFindings: () => {
        reads++;
        return new Promise<DriftFinding[]>((resolve) => pending.push(resolve));
      },
    };
    const store = { folder: FOLDER, api };
    const stores = { folders: () => [FOLDER], get: () => store, all: () => [store] };
    const tracker = new DriftTracker();
    const logger = { info() {}, warn() {}, error() {}, debug() {} };
    const view = new LoreTreeProvider('lore.drift', stores as never, tracker, logger as never);
    tracker.onDidChange(() => view.redraw()); // as wire.ts does
    let redraws = 0;
    view.onDidChangeTreeData(() => redraws++);

    const first = view.getChildren();
    pending.shift()!([finding as unknown as DriftFinding]);
    assert.equal((await first).length, 1);
    redraws = 0;

    view.refresh(FOLDER); // the store changed
    assert.equal(redraws, 0, 'no redraw while the findings are being read (the rows would be gone)');
    assert.equal(reads, 2, 'the read started');
    const moved = { ...finding, id: 'f2', reference: { raw: 'stop()' } };
    pending.shift()!([finding, moved] as unknown as DriftFinding[]);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(redraws, 1, 'one redraw once they are read');
    const drawn = await view.getChildren();
    assert.equal(reads, 2, 'the redraw draws what was read, without a second read');
    assert.equal(drawn.length, 2);

    // A save, its index run and the read after it each report a change; rows that would be the
    // same are not redrawn (a click on a row while VS Code redraws reaches its command with no row).
    redraws = 0;
    view.refresh(FOLDER);
    pending.shift()!([finding, moved] as unknown as DriftFinding[]);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(redraws, 0, 'the same rows are not redrawn');
    view.redraw();
    assert.equal(redraws, 0, 'nor on a change that leaves them as they are');
  });

  it('a read that overlapped a resolution is read again, so the resolved finding does not come back', async () => {
    installFakeVscode(createFakeVscode());

    const { DriftTracker } =
      require('../../../../src/vscode/drift/tracker') as typeof import('../../../../src/vscode/drift/tracker');
    const answers: DriftFinding[][] = [[finding as unknown as DriftFinding], [finding as unknown as DriftFinding], []];
    const pending: (() => void)[] = [];
    const api = {
      driftFindings: () => new Promise<DriftFinding[]>((resolve) => pending.push(() => resolve(answers.shift()!))),
    };
    const store = { folder: FOLDER, api };
    const tracker = new DriftTracker();
    const first = tracker.refresh(store as never);
    pending.shift()!();
    await first;
    const second = tracker.refresh(store as never); // started before the person resolves the finding
    tracker.resolved(FOLDER, 'f1'); // e.g. Re-verify Reference from the row
    pending.shift()!(); // the read still had it
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(pending.length, 1, 'the overlapped read is not applied: the tracker reads again');
    pending.shift()!(); // the store no longer has it
    await second;
    assert.deepEqual(tracker.known(FOLDER), []);
  });
});

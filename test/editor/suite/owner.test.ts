// Where the store runs in the real editor: not in the extension host (this process) but in the
// `lore serve` child the extension started for the folder, which the CLI reaches too; when that
// process is killed, the extension starts another and the store answers again with what it held.

import * as assert from 'node:assert/strict';
import { readFileSync, watch } from 'node:fs';
import { storePaths } from '../../../src/host/dataDir';
import type { OwnerInfo } from '../../../src/host/ownerLock';
import { SEEDED_DECISION } from '../seed';
import { activeLore, loreCli, workspaceRoot } from './lore';

function ownerFile(): string {
  const home = process.env.LORE_HOME;
  if (!home) throw new Error('LORE_HOME is not set: run this suite through npm run test:editor');
  return storePaths(workspaceRoot().fsPath, home).owner;
}

function readOwner(): OwnerInfo | undefined {
  try {
    return JSON.parse(readFileSync(ownerFile(), 'utf8')) as OwnerInfo;
  } catch {
    return undefined;
  }
}

/** Resolves with owner.json once `accept` takes it (checked now and on each change of its folder). */
function ownerWhere(accept: (owner: OwnerInfo | undefined) => boolean): Promise<OwnerInfo> {
  return new Promise((resolve) => {
    const check = () => {
      const owner = readOwner();
      if (!accept(owner) || !owner) return false;
      resolve(owner);
      return true;
    };
    if (check()) return;
    const watcher = watch(storePaths(workspaceRoot().fsPath, process.env.LORE_HOME).dir, () => {
      if (check()) watcher.close();
    });
  });
}

describe("The store's owner process", () => {
  before(async () => {
    await activeLore();
  });

  it('is a lore serve child, not the extension host, and the CLI works through it', async () => {
    const owner = await ownerWhere((o) => o?.port !== null && o?.port !== undefined);
    assert.notEqual(owner.pid, process.pid, 'the store is not opened in the extension host');
    assert.equal(owner.door, 'lore serve');
    const listed = (await loreCli(['list'])) as { items: { key: string }[] };
    assert.ok(listed.items.some((m) => m.key === SEEDED_DECISION.key));
  });

  it('is started again when it is killed, and the store answers with what it held', async () => {
    const before = await ownerWhere((o) => Boolean(o?.port));
    const replaced = ownerWhere((o) => Boolean(o?.port) && o!.pid !== before.pid && o!.door === 'lore serve');
    process.kill(before.pid, 'SIGKILL');
    const after = await replaced;
    assert.notEqual(after.pid, process.pid);
    const listed = (await loreCli(['list'])) as { items: { key: string }[] };
    assert.ok(
      listed.items.some((m) => m.key === SEEDED_DECISION.key),
      'the records are still there',
    );
  });
});

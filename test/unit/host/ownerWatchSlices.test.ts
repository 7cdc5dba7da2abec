// The owner never stalls on a change set (issue 26, point 4), on a real store and real files: a
// branch switch's hundreds of changed files the index does not take are drift-checked in slices, so
// a recall asked when the check starts is answered before the check is done (the old check of 500
// paths in one piece answered it only afterwards); and a saved document the index re-reads is
// drift-checked once, by the index's own check of its batch, even with a `drift` listener (which
// used to check it a second time) — the listener still hears every reference into it.

import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { silentLogger, type Engine } from '../../../src/engine';
import { DriftService } from '../../../src/engine/drift/service';
import { OwnerEvents, type DriftEvent } from '../../../src/host/ownerEvents';
import { OwnerWatch } from '../../../src/host/ownerWatch';
import { OwnedStoreAccess } from '../../../src/host/storeAccess';
import { tempDir } from '../../support/store';

const MODULES = 600;

/** A workspace whose guide names every module (code files: drift watches them, the index does not take them). */
function workspace(): string {
  const root = tempDir('lore-owner-slices-');
  mkdirSync(join(root, 'src'), { recursive: true });
  mkdirSync(join(root, 'docs'), { recursive: true });
  const names: string[] = [];
  for (let i = 0; i < MODULES; i++) {
    writeFileSync(join(root, 'src', `mod${i}.ts`), `export const value${i} = ${i};\n`);
    names.push(`- \`src/mod${i}.ts\``);
  }
  writeFileSync(join(root, 'docs', 'modules.md'), `# Modules\n\n${names.join('\n')}\n`);
  writeFileSync(join(root, 'docs', 'runbook.md'), '# Runbook\n\n## Restart\n\nRestart the workers.\n');
  writeFileSync(
    join(root, 'docs', 'oncall.md'),
    '# On call\n\nSee [the restart](runbook.md#restart) and [the runbook](runbook.md).\n',
  );
  return root;
}

/** The drift checks the owner asks the engine for, outside an index (each call's paths). */
function countChecks(engine: Engine): string[][] {
  const calls: string[][] = [];
  const whole = engine.driftCheck.bind(engine);
  const sliced = engine.driftCheckInSlices.bind(engine);
  engine.driftCheck = (paths) => (calls.push([...paths]), whole(paths));
  engine.driftCheckInSlices = (paths) => (calls.push([...paths]), sliced(paths));
  return calls;
}

describe('the owner checks a change set in slices, and a re-indexed file once', function () {
  this.timeout(120_000);
  const sliceMs = DriftService.sliceMs;
  let watcher: OwnerWatch | undefined;
  let access: OwnedStoreAccess | undefined;
  afterEach(async () => {
    DriftService.sliceMs = sliceMs;
    await watcher?.close();
    access?.close();
  });

  async function owner(root: string) {
    const events = new OwnerEvents();
    access = new OwnedStoreAccess({ workspace: root, home: tempDir('lore-owner-home-'), door: 'test' });
    watcher = new OwnerWatch(access, root, silentLogger, events);
    await watcher.indexNow();
    const engine = access.open().engine;
    const drift = () =>
      new Promise<DriftEvent>((resolve) => {
        const stop = events.subscribe(['drift'], (e) => (stop(), resolve(e as DriftEvent)));
      });
    return { engine, drift, hint: (paths: string[]) => watcher!.hint(paths) };
  }

  it('answers a recall asked as a 600-file branch switch starts to be checked, before the check ends', async () => {
    const root = workspace();
    const { engine, drift, hint } = await owner(root);
    assert.equal(engine.driftFindings().length, 0);
    DriftService.sliceMs = 0;
    const checks = countChecks(engine);
    // The recall is asked as the first check starts: the owner's other work waits for a turn of the loop.
    let recalled: Promise<string> | undefined;
    let answeredBeforeTheEvent = false;
    let eventHeard = false;
    const whole = engine.driftCheck.bind(engine);
    const sliced = engine.driftCheckInSlices.bind(engine);
    const askOnce = () => {
      recalled ??= new Promise((resolve) =>
        setImmediate(
          () =>
            void engine.recall({ query: 'restart the workers', limit: 3 }).then((r) => {
              answeredBeforeTheEvent = !eventHeard;
              const [first] = r.results;
              resolve(first?.record === 'doc' ? first.path : '');
            }),
        ),
      );
    };
    engine.driftCheck = (paths) => (askOnce(), whole(paths));
    engine.driftCheckInSlices = (paths) => (askOnce(), sliced(paths));
    const heard = drift().then((e) => ((eventHeard = true), e));
    const changed = Array.from({ length: MODULES }, (_, i) => `src/mod${i}.ts`);
    for (const path of changed) writeFileSync(join(root, path), `export const renamed = 1;\n`);
    hint(changed);
    const event = await heard;
    assert.ok(recalled, 'the owner checked the changed files');
    assert.equal(await recalled, 'docs/runbook.md');
    assert.ok(answeredBeforeTheEvent, 'the recall was answered only after the whole change set was checked');
    // Every reference into the changed files was checked, a check taking at most 500 of them.
    assert.equal(event.findings.length, MODULES);
    assert.ok(checks.every((paths) => paths.length <= 500));
    assert.equal(
      engine.driftFindings({ path: 'docs/modules.md' }).filter((f) => f.state === 'changed').length,
      MODULES,
    );
  });

  it('checks a re-indexed saved document once, and the drift listener hears every reference into it', async () => {
    const root = workspace();
    const { engine, drift, hint } = await owner(root);
    const checks = countChecks(engine);
    const heard = drift();
    writeFileSync(join(root, 'docs', 'runbook.md'), '# Runbook\n\n## Restart\n\nRestart the workers, then drain.\n');
    hint(['docs/runbook.md']);
    const event = await heard;
    assert.deepEqual(checks, [], 'the document was checked again after the index had checked it');
    assert.ok(event.paths.includes('docs/runbook.md'));
    assert.deepEqual(event.findings.map((f) => `${f.source.path} ${f.reference.raw} ${f.state}`).sort(), [
      'docs/oncall.md runbook.md changed',
      'docs/oncall.md runbook.md#restart changed',
    ]);
  });
});

// The in-host entry: VS Code's extension host loads this bundle (extensionTestsPath) and awaits
// run(). It runs the editor suite with mocha, writes every test's outcome to the bridge folder for
// the runner to print, photographs the Lore sidebar, and rejects when a test failed (which sets
// the host's exit code).

import * as vscode from 'vscode';
import { RESULTS_FILE, writeWhole, type TestResult } from '../bridge';
import { bridgeDir, ui, uiAvailable } from './ui';

// mocha is loaded from the project's node_modules at run time (the bundle keeps it external).
const Mocha = require('mocha') as typeof import('mocha');

export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 180_000, color: false, reporter: 'spec' });
  // Alternatives separated by | (each a plain part of a title), as the page scenarios read it (scenarios.ts).
  const grep = process.env.LORE_EDITOR_GREP;
  if (grep)
    mocha.grep(
      new RegExp(
        grep
          .split('|')
          .map((part) => part.replace(/[.*+?^${}()[\]\\]/g, '\\$&'))
          .join('|'),
      ),
    );
  mocha.suite.emit('pre-require', globalThis, 'lore-editor', mocha);
  // Each file registers its describe() blocks when required, after mocha's globals exist.
  require('./activation.test');
  // Early: it answers the model offer this window's first index made, so later tests see no toast.
  require('./modelOffer.test');
  require('./views.test');
  require('./kinds.test');
  // Before drift.test, which changes src/queue.ts.
  require('./lens.test');
  require('./drift.test');
  require('./driftDocs.test');
  require('./driftRunbook.test');
  require('./findingMenu.test');
  require('./remember.test');
  require('./recall.test');
  require('./edit.test');
  require('./anchors.test');
  require('./memoryAutoSave.test');
  require('./importPlan.test');
  require('./mcp.test');
  require('./owner.test');
  // Last: it lays 10k files into the workspace (and removes them again).
  require('./loopDelay.test');

  const results: TestResult[] = [];
  const failures = await new Promise<number>((resolve) => {
    const runner = mocha.run(resolve);
    const seconds = (test: Mocha.Test) => Math.round((test.duration ?? 0) / 100) / 10;
    runner.on('pass', (test) => results.push({ title: test.fullTitle(), state: 'passed', seconds: seconds(test) }));
    runner.on('pending', (test) =>
      results.push({ title: test.fullTitle(), state: 'skipped', error: skipReason(test) }),
    );
    runner.on('fail', (test, error: Error) =>
      results.push({ title: test.fullTitle(), state: 'failed', error: error.message, seconds: seconds(test) }),
    );
  });
  await photographSidebar(results);
  writeWhole(bridgeDir(), RESULTS_FILE, { tests: results });
  if (failures > 0) throw new Error(`${failures} editor test(s) failed`);
}

function skipReason(test: Mocha.Test): string | undefined {
  return (test as Mocha.Test & { skipReason?: string }).skipReason;
}

/** The CI artifact: Lore's view container, shown, then photographed by the runner. */
async function photographSidebar(results: TestResult[]): Promise<void> {
  if (!uiAvailable()) return;
  try {
    // A missing container is the views test's failure to report; the picture is taken regardless.
    await vscode.commands.executeCommand('workbench.view.extension.lore').then(undefined, () => undefined);
    await ui({ action: 'screenshot', name: 'sidebar', part: 'sidebar' });
    await ui({ action: 'screenshot', name: 'window', part: 'window' });
  } catch (error) {
    results.push({ title: 'editor: sidebar screenshot', state: 'failed', error: (error as Error).message });
  }
}

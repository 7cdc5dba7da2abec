// A figure, not an assertion: how late the extension host's event loop runs while Lore indexes a
// repository of 10k files (bench/docsCorpus.ts, laid into the workspace under bulk-corpus/). The
// host runs every extension of the window, so a stall here is a stall for all of them. Sampled by
// Node's own event-loop delay histogram in this very process (the suite runs in the extension
// host); the baseline is the same histogram over an idle second just before. The figure goes to
// the bridge folder and the runner prints it; the test checks only that the files were indexed.
// LORE_EDITOR_LOOP_FILES changes the corpus size (default 10000); 0 skips the test.

import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import * as vscode from 'vscode';
import { docsCorpus } from '../../../bench/docsCorpus';
import { FIGURES_FILE, writeWhole, type Figure } from '../bridge';
import { activeLore, loreCli, skip, workspaceRoot } from './lore';
import { bridgeDir } from './ui';

const FILES = Number(process.env.LORE_EDITOR_LOOP_FILES ?? 10_000);
const FOLDER = 'bulk-corpus';
const IDLE_MS = 1000;
/** The histogram's sampling interval; a sample is the interval plus how late it fired. */
const RESOLUTION_MS = 10;

interface IndexResult {
  status: { files: number };
}

function figures(histogram: IntervalHistogram): { p50: number; p99: number; max: number } {
  // How late the loop ran (as bench/loopProbe.cjs counts it): the sample less the interval.
  const ms = (ns: number) => Math.max(0, Math.round((ns / 1e6 - RESOLUTION_MS) * 10) / 10);
  return { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) };
}

describe('Extension host while a large repository indexes', function () {
  this.timeout(20 * 60_000);
  const dir = () => join(workspaceRoot().fsPath, FOLDER);

  before(async function () {
    if (!FILES) return skip(this, 'LORE_EDITOR_LOOP_FILES=0');
    await activeLore();
    for (const file of docsCorpus(FILES)) {
      const path = join(dir(), file.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.text);
    }
  });

  after(async () => {
    rmSync(dir(), { recursive: true, force: true });
    // The later scenarios open the same store: leave its index as the seed made it.
    await loreCli(['index']);
  });

  it(`records the host's event-loop delay while ${FILES} files index (a figure)`, async () => {
    const idle = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    idle.enable();
    await delay(IDLE_MS);
    idle.disable();
    const busy = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    const started = performance.now();
    busy.enable();
    // Resume indexes every opened store and resolves when the runs end (the editor's own path).
    await vscode.commands.executeCommand('lore.resumeIndexing');
    busy.disable();
    const seconds = (performance.now() - started) / 1000;
    const result = (await loreCli(['index'])) as IndexResult;
    assert.ok(result.status.files >= FILES, `the store indexed ${result.status.files} files; the corpus has ${FILES}`);
    const figure: Figure = {
      name: 'editor.host_loop_delay.indexing',
      label: `extension host event-loop delay while ${FILES} files index`,
      unit: 'ms',
      busy: figures(busy),
      idle: figures(idle),
      seconds: Math.round(seconds * 10) / 10,
    };
    writeWhole(bridgeDir(), FIGURES_FILE, [figure]);
  });
});

// The suite's side of the bridge (see ../bridge.ts): ask the runner to act in the browser page and
// wait for its answer. Under desktop VS Code (test-electron) nobody answers, so uiAvailable() is
// false there and the tests that need a person's hands skip with that reason.

import { existsSync, readFileSync, watch } from 'node:fs';
import { join } from 'node:path';
import { ENV } from '../seed';
import { requestFile, responseFile, writeWhole, type UiRequest, type UiResponse } from '../bridge';

let nextId = 1;

export function bridgeDir(): string {
  const dir = process.env[ENV.bridge];
  if (!dir) throw new Error(`${ENV.bridge} is not set: run this suite through npm run test:editor`);
  return dir;
}

/** Whether a runner with a browser page answers UI requests (code-server runs; not desktop VS Code). */
export function uiAvailable(): boolean {
  return process.env[ENV.ui] === '1';
}

/** Sends one request and resolves with the runner's answer (or rejects with its error). */
export async function ui(request: UiRequest): Promise<string | undefined> {
  const dir = bridgeDir();
  const id = nextId++;
  const answerPath = join(dir, responseFile(id));
  const answered = new Promise<void>((resolve) => {
    const watcher = watch(dir, () => {
      if (existsSync(answerPath)) {
        watcher.close();
        resolve();
      }
    });
  });
  writeWhole(dir, requestFile(id), request);
  await answered;
  const response = JSON.parse(readFileSync(answerPath, 'utf8')) as UiResponse;
  if (!response.ok) throw new Error(`UI ${request.action} failed: ${response.error}`);
  return response.value;
}

// The embedding worker_thread: loads the model (modelSession.ts) and embeds one batch per request,
// in arrival order, so ONNX inference never runs on the caller's thread. Built to
// dist/embedWorker.js, which every caller starts (tests and benches too).

import { parentPort, workerData } from 'node:worker_threads';
import { loadModelSession, type ModelSession } from './modelSession';
import type { WorkerInit, WorkerMessage, WorkerRequest } from './protocol';

const port = parentPort!;
const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

let model: ModelSession;
/** Requests waiting, run one at a time in arrival order. */
const waiting: WorkerRequest[] = [];
let draining = false;

async function drain(): Promise<void> {
  draining = true;
  for (let request = waiting.shift(); request; request = waiting.shift()) {
    try {
      const { dims, vectors } = await model.embed(request.texts);
      post({ type: 'embedded', id: request.id, dims, vectors }, [vectors.buffer as ArrayBuffer]);
    } catch (err) {
      post({ type: 'error', id: request.id, message: message(err) });
    }
  }
  draining = false;
}

port.on('message', (request: WorkerRequest) => {
  waiting.push(request);
  if (model && !draining) void drain();
});

loadModelSession(workerData as WorkerInit).then(
  (loaded) => {
    model = loaded;
    const { dims, backend, fallbackReason, sessionOptions, maxTokens, loadMs } = loaded;
    post({ type: 'ready', dims, backend, fallbackReason, sessionOptions, maxTokens, loadMs });
    if (waiting.length) void drain();
  },
  (err) => post({ type: 'failed', message: message(err) }),
);

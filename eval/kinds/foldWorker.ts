// A worker thread of the leave-one-repository-out run (foldPool.ts): holds every repository's samples
// and trains the model without the repositories each message names.

import { parentPort, workerData } from 'node:worker_threads';
import { trainKinds, type Sample, type TrainSettings } from './trainer';

const { byRepo, settings } = workerData as { byRepo: Array<[string, Sample[]]>; settings: TrainSettings };

parentPort!.on('message', ({ id, without }: { id: number; without: string[] }) => {
  const excluded = new Set(without);
  const samples = byRepo.filter(([name]) => !excluded.has(name)).flatMap(([, s]) => s);
  parentPort!.postMessage({ id, weights: trainKinds(samples, settings) });
});

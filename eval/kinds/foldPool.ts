// Trains the leave-one-repository-out run's models in worker threads (LORE_KIND_THREADS, default 2;
// 1 trains in this thread). Each model is trained by the same code on the same samples in the same
// order as in one thread, so the weights are the same numbers: only the wall time changes.

import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import type { KindWeights } from '../../src/engine/indexing/kindModel';
import { trainKinds, type Sample, type TrainSettings } from './trainer';

export function threadCount(): number {
  const n = Number(process.env.LORE_KIND_THREADS ?? 2);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, 8) : 2;
}

/**
 * One model per job, trained on every repository's samples (in `byRepo`'s order) but those the job
 * names; the models in the jobs' order.
 */
export async function trainWithout(
  byRepo: Array<[string, Sample[]]>,
  jobs: string[][],
  settings: TrainSettings,
  threads = threadCount(),
): Promise<KindWeights[]> {
  const inline = (without: string[]) => {
    const excluded = new Set(without);
    return trainKinds(
      byRepo.filter(([name]) => !excluded.has(name)).flatMap(([, s]) => s),
      settings,
    );
  };
  if (threads <= 1 || jobs.length <= 1) return jobs.map(inline);
  const out = new Array<KindWeights>(jobs.length);
  let next = 0;
  const workers = Array.from(
    { length: Math.min(threads, jobs.length) },
    // The worker is TypeScript: it registers tsx's CommonJS hook (as `tsx` runs this thread) first.
    () =>
      new Worker(
        `require(${JSON.stringify(require.resolve('tsx/cjs'))}); ` +
          `require(${JSON.stringify(join(__dirname, 'foldWorker.ts'))});`,
        { eval: true, workerData: { byRepo, settings } },
      ),
  );
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const send = () => {
              if (next >= jobs.length) return resolve();
              const id = next++;
              worker.postMessage({ id, without: jobs[id] });
            };
            worker.on('message', ({ id, weights }: { id: number; weights: KindWeights }) => {
              out[id] = weights;
              send();
            });
            worker.on('error', reject);
            worker.on('exit', (code) => (next < jobs.length || code ? reject(new Error(`worker exit ${code}`)) : 0));
            send();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return out;
}

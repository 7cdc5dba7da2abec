// The owner's drift worker (dist/driftWorker.js, started by driftPreparer.ts): resolves and
// fingerprints the new references of an index batch's documents on its own thread, so the owner's
// event loop answers requests while the workspace's outlines, folders and symbols are worked out.
// It reads the workspace only, never the store: the owner writes what it sends back (one writer).
// It keeps one workspace view between jobs, refreshing the paths each job names, as the owner's own
// drift view does.

import { parentPort, workerData } from 'node:worker_threads';
import { silentLogger } from '../engine';
import { prepareDoc, type PreparedDoc, type PrepareRequest } from '../engine/drift/freshRows';
import { Neighbours } from '../engine/drift/mention';
import { forgetSites } from '../engine/drift/site';
import { Workspace } from '../engine/drift/workspace';
import { treeSitterSymbols } from './symbols/treeSitter';
import { DiskWorkspaceReader } from './workspaceReader';

export interface DriftWorkerData {
  root: string;
}

export interface DriftJob {
  id: number;
  changed: readonly string[];
  docs: readonly PrepareRequest[];
  repositories: readonly string[];
}

export type DriftJobReply = { id: number; prepared: Array<[string, PreparedDoc]> } | { id: number; error: string };

function serve(): void {
  const port = parentPort!;
  const { root } = workerData as DriftWorkerData;
  // The same parser as the owner's, once its grammars load: a symbol is located as the owner would.
  const parser = treeSitterSymbols(silentLogger);
  const ws = new Workspace(new DiskWorkspaceReader(root, parser));
  let queue: Promise<void> = parser.whenReady.catch(() => undefined);
  port.on('message', (job: DriftJob) => {
    queue = queue.then(() => {
      try {
        ws.forgetTexts();
        for (const path of job.changed) ws.refresh([path]);
        forgetSites(ws, job.changed);
        const near = new Neighbours(ws);
        const prepared: Array<[string, PreparedDoc]> = [];
        for (const doc of job.docs) {
          const ready = prepareDoc(ws, doc, job.repositories, near);
          if (ready) prepared.push([doc.path, ready]);
        }
        port.postMessage({ id: job.id, prepared } satisfies DriftJobReply);
      } catch (error) {
        port.postMessage({ id: job.id, error: (error as Error).message } satisfies DriftJobReply);
      }
    });
  });
}

if (parentPort) serve();

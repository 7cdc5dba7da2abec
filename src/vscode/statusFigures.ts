// What the status-bar item says about the index of the open stores (summed over folders).

import type { IndexStatus } from '../engine';
import { editorWording } from './editorWording';
import { when } from './views/labels';

export interface StatusFigures {
  files: number;
  chunks: number;
  pending: number;
  models: string[];
  problems: string[];
  lastUpdate: string | null;
}

/** Sums the index status of several folders' stores. */
export function combine(statuses: IndexStatus[]): StatusFigures {
  const figures: StatusFigures = { files: 0, chunks: 0, pending: 0, models: [], problems: [], lastUpdate: null };
  for (const s of statuses) {
    figures.files += s.files;
    figures.chunks += s.chunks;
    figures.pending += s.pending;
    if (s.model && !figures.models.includes(s.model)) figures.models.push(s.model);
    if (s.model_problem && !figures.problems.includes(s.model_problem)) figures.problems.push(s.model_problem);
    if (s.last_update && (!figures.lastUpdate || s.last_update > figures.lastUpdate))
      figures.lastUpdate = s.last_update;
  }
  return figures;
}

export function describe(f: StatusFigures): { text: string; tooltip: string } {
  const files = `${f.files} file${f.files === 1 ? '' : 's'}`;
  const text =
    `$(book) Lore ` + `${files}${f.pending ? ` · ${f.pending} pending` : ''}${f.models.length ? '' : ' · lexical'}`;
  const lines = [
    `**Lore index**: ${f.files} files, ${f.chunks} chunks, ${f.pending} waiting for embeddings`,
    `Model: ${f.models.length ? f.models.join(', ') : 'none — recall is lexical'}`,
    ...f.problems.map((p) => `Why no model: ${editorWording(p)}`),
    `Last update: ${when(f.lastUpdate)}`,
  ];
  return { text, tooltip: lines.join('\n\n') };
}

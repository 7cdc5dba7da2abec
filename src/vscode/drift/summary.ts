// The hint a saved file gets: who refers to it ("2 decisions and 1 doc reference this file").

import { typeInfo } from '../../engine';
import type { DriftFinding } from '../contract';
import { foldFindings } from './fold';

/** "2 decisions and 1 doc reference this file" from the findings whose target is the file. */
export function referenceSummary(findings: DriftFinding[]): string | null {
  const sources = new Map<string, string>();
  for (const f of findings) {
    const type = f.source.kind === 'doc' ? 'doc' : (f.source.key ?? '').split('/')[0] || 'memory';
    sources.set(f.source.key ?? `doc:${f.source.path}`, type);
  }
  if (!sources.size) return null;
  const counts = new Map<string, number>();
  for (const type of sources.values()) counts.set(type, (counts.get(type) ?? 0) + 1);
  const plural = (type: string, n: number) => {
    const info = typeInfo(type);
    const word = info?.word ?? type.replace(/_/g, ' ');
    return `${n} ${n === 1 ? word : (info?.plural ?? `${word}s`)}`;
  };
  const parts = [...counts].map(([type, n]) => plural(type, n));
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0];
  // Counted as the Problems panel shows them: a function and its file on one line are one.
  const drifted = foldFindings(findings).length;
  return `${list} reference${sources.size === 1 ? 's' : ''} this file${drifted ? ` (${drifted} drifted)` : ''}`;
}

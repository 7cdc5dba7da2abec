// One warning per referring line and target. A doc line that names `processJob()` in
// `src/worker.ts` holds two references into that file, the function and the file; one edit to the
// function drifts both. The more specific reference (a symbol, section or lines) stands for the
// file-wide one on the same line, which is folded into it: shown once, resolved together. The
// diagnostics, the Drift view and the saved file's hint all count what this returns. When the file
// moved, the path on the line is what needs rewriting: a relocated path reference stands for the
// flags and symbols into the same file (its Update is the fix; theirs would rewrite the wrong token).

import { NOT_FINDINGS } from '../../engine';
import type { DriftFinding } from '../contract';
import { canRelink } from './relink';

export interface DriftGroup {
  /** The finding shown: the most specific reference on its line into its target. */
  finding: DriftFinding;
  /** File-wide findings on the same line into the same file, resolved with it. */
  also: DriftFinding[];
}

const lineOf = (f: DriftFinding) =>
  `${f.source.kind}|${f.source.key ?? f.source.path}|${f.source.line ?? ''}|${f.reference.target_path}`;

/**
 * The drifted findings (every state but current and ambiguous: a name several files match is no
 * warning), grouped as above, in their given order.
 */
export function foldFindings(findings: readonly DriftFinding[]): DriftGroup[] {
  const drifted = findings.filter((f) => !NOT_FINDINGS.includes(f.state));
  const specific = new Map<string, DriftGroup[]>();
  const groups: DriftGroup[] = [];
  for (const f of drifted) {
    if (!f.reference.symbol || !f.reference.target_path) continue;
    const group = { finding: f, also: [] };
    specific.set(lineOf(f), [...(specific.get(lineOf(f)) ?? []), group]);
  }
  for (const f of drifted) {
    const hosts = specific.get(lineOf(f));
    if (f.reference.symbol && f.reference.target_path) {
      groups.push(hosts!.find((g) => g.finding === f)!);
      continue;
    }
    if (hosts?.length && f.reference.target_path) for (const host of hosts) host.also.push(f);
    else groups.push({ finding: f, also: [] });
  }
  return groups.map((g) => {
    if (g.finding.state !== 'relocated' || canRelink(g.finding)) return g;
    const path = g.also.find(canRelink);
    return path ? { finding: path, also: [...g.also.filter((f) => f !== path), g.finding] } : g;
  });
}

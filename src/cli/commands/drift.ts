// `lore drift scan|check|list`: what the repository's documents and the memories' anchors refer to
// that moved on — a full scan, the quick check for files just saved, or the findings kept so far.

import { isAbsolute, relative, resolve, sep } from 'node:path';
import { DRIFT_STATES, type DriftFinding, type DriftScanResult, type DriftState } from '../../engine';
import { resolveWorkspaceRoot } from '../../host/dataDir';
import type { Command } from '../command';
import { listOption, stringOption, UsageError } from '../parse';

export const driftCommand: Command = {
  name: 'drift',
  summary: 'find references (in docs and memory anchors) whose target changed, moved or went away',
  usage: 'lore drift scan | lore drift check PATH... | lore drift list [--new] [--key K] [--path P] [--state S]...',
  options: {
    key: { type: 'string' },
    path: { type: 'string' },
    state: { type: 'string', multiple: true },
    new: { type: 'boolean' },
  },
  positionals: { min: 1, max: Infinity, names: 'scan|check PATH...|list' },
  async run(ctx, v, [sub, ...paths]) {
    const filtering = v.key !== undefined || v.path !== undefined || v.state !== undefined || v.new !== undefined;
    if (sub !== 'list' && filtering) throw new UsageError('--new, --key, --path and --state go with: lore drift list');
    if (sub === 'scan') {
      if (paths.length)
        throw new UsageError('lore drift scan takes no paths', 'to check some files, use: lore drift check PATH...');
      const result = await ctx.withEngine((engine) => engine.driftScan(), { create: true });
      ctx.print(result, renderScan);
      return 0;
    }
    if (sub === 'check') {
      if (!paths.length)
        throw new UsageError(
          'lore drift check needs the paths that changed',
          'e.g. lore drift check src/jobs/queue.ts (relative to the workspace root)',
        );
      const inside = workspacePaths([resolve(ctx.workspace), resolveWorkspaceRoot(ctx.workspace)], paths);
      const findings = await ctx.withEngine((engine) => engine.driftCheck(inside), { create: true });
      ctx.print(findings, (f) =>
        renderFindings(
          f.filter((x) => x.state !== 'current'),
          `no drift in references to ${paths.join(', ')}`,
        ),
      );
      return 0;
    }
    if (sub === 'list') {
      if (paths.length) throw new UsageError('lore drift list takes no paths', 'filter with --path P');
      const states = listOption(v.state);
      for (const s of states ?? [])
        if (!(DRIFT_STATES as readonly string[]).includes(s))
          throw new UsageError(`--state must be one of ${DRIFT_STATES.join(', ')}; got "${s}"`);
      const findings = await ctx.withEngine((engine) =>
        engine.driftFindings({
          key: stringOption(v.key),
          path: stringOption(v.path),
          states: states as DriftState[] | undefined,
          fresh: v.new === true,
        }),
      );
      ctx.print(findings, (f) => renderFindings(f, 'no drift findings (run `lore drift scan` to look)'));
      return 0;
    }
    throw new UsageError(
      `unknown drift command "${sub}"`,
      'use: lore drift scan, lore drift check PATH..., or lore drift list',
    );
  },
};

/**
 * The paths as the engine knows them: workspace-relative with `/`. An absolute path inside the
 * workspace (as given, or as its real path) is made relative; one outside is refused.
 */
export function workspacePaths(roots: readonly string[], paths: readonly string[]): string[] {
  return paths.map((path) => {
    const candidates = isAbsolute(path) ? roots.map((root) => relative(root, path)) : [path.replace(/^(\.[\\/])+/, '')];
    const inside = candidates
      .map((p) => p.split(sep).join('/'))
      .find((p) => p && !isAbsolute(p) && !p.split('/').includes('..'));
    if (!inside)
      throw new UsageError(
        `${path} is not a path inside the workspace ${roots[0]}`,
        'give paths relative to the workspace root, e.g. src/jobs/queue.ts',
      );
    return inside;
  });
}

function where(f: DriftFinding): string {
  return f.source.kind === 'memory' ? f.source.key! : `${f.source.path}${f.source.line ? `:${f.source.line}` : ''}`;
}

function renderFindings(findings: DriftFinding[], none: string): string {
  if (!findings.length) return none;
  return findings
    .map(
      (f) =>
        `${f.state.padEnd(9)} ${where(f)} → ${f.reference.raw}${f.already_broken ? ' (already broken)' : ''}\n` +
        `          ${f.evidence.detail}`,
    )
    .join('\n');
}

function renderScan(result: DriftScanResult): string {
  const counts = DRIFT_STATES.map((s) => `${result.by_state[s]} ${s}`).join(', ');
  return `${result.references} references: ${counts}\n${renderFindings(result.findings, 'nothing drifted')}`;
}

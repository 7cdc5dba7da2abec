// `.lore/kinds` on disk: read fresh for every index run (engineApi.ts), and changed by
// `lore kind set|remove` and the editor's Set Kind… / Clear Kind Correction, which reach the store's
// owner as the /rpc ops setKind and removeKind. A change checks everything before it writes (the
// kind, the glob, that the glob matches a file the index takes), then writes the file and indexes,
// so the store shows the corrected kinds when the call returns; nothing is written on an error.

import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { LoreError, type Engine, type IndexStatus, type IndexSummary } from '../engine';
import type { DocKind } from '../engine';
import {
  globMatcher,
  globProblem,
  KIND_RULES_FILE,
  kindMatcher,
  literalGlob,
  parseKindRules,
  requireKindNamed,
  withKindRule,
  withoutKindRule,
  type KindRuleProblem,
  type KindRules,
} from '../engine/indexing/kindCorrections';
import { WorkspaceRepoFiles } from './repoFiles';

export interface KindRuleRow {
  glob: string;
  kind: DocKind;
  line: number;
  /** Indexed documents the glob matches. */
  matches: number;
  /** Of those, the ones this rule decides (no later rule matches them). */
  decides: number;
}

export interface KindRuleList {
  file: string;
  exists: boolean;
  rules: KindRuleRow[];
  /** Lines that are ignored, and why. */
  problems: KindRuleProblem[];
}

export interface KindChange {
  action: 'set' | 'remove';
  file: string;
  glob: string;
  /** The kind set (null for a removal). */
  kind: DocKind | null;
  /** Files in the workspace the glob matches (those the index takes). */
  files: number;
  /** What the index run after the write re-classified. */
  reclassified: number;
  status: IndexStatus;
}

/** What a change needs from the host around it (engineApi.ts): the files the index takes, and an index run. */
export interface KindWriteHost {
  /** Workspace-relative paths the next index takes (record files aside). */
  indexable(): Promise<string[]>;
  reindex(): Promise<{ summary: IndexSummary; status: IndexStatus }>;
}

/** The workspace's rules as the index reads them; a file that cannot be read is a problem, not a failure. */
export function readKindRules(root: string): KindRules & { exists: boolean } {
  const path = join(root, KIND_RULES_FILE);
  if (!existsSync(path)) return { rules: [], problems: [], exists: false };
  try {
    const text = new WorkspaceRepoFiles(root).read(KIND_RULES_FILE);
    return { ...parseKindRules(text ?? ''), exists: text !== null };
  } catch (error) {
    return { rules: [], problems: [{ line: 0, message: `cannot be read: ${(error as Error).message}` }], exists: true };
  }
}

export function listKinds(engine: Engine, root: string): KindRuleList {
  const { rules, problems, exists } = readKindRules(root);
  const counts = engine.countKindRules(rules);
  return {
    file: KIND_RULES_FILE,
    exists,
    rules: rules.map((rule, i) => ({ ...rule, ...counts[i] })),
    problems,
  };
}

function text(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new LoreError('INVALID_INPUT', `${field} must be a workspace-relative path or glob`);
  return value.trim();
}

/** Sets `kind` for the files `target` (a path, or a glob) names: a rule at the end of `.lore/kinds`. */
export async function setKind(
  host: KindWriteHost,
  root: string,
  target: unknown,
  kindName: unknown,
): Promise<KindChange> {
  const given = text('path', target);
  const kind = requireKindNamed(typeof kindName === 'string' ? kindName : String(kindName));
  const paths = await host.indexable();
  // A file's own path is written as a glob that matches only it (its `[`, `*`… escaped).
  const glob = paths.includes(given) ? literalGlob(given) : given;
  const bad = globProblem(glob);
  if (bad) throw new LoreError('INVALID_INPUT', bad, 'give a path or glob relative to the workspace root');
  const matches = globMatcher(glob);
  const matched = paths.filter((path) => matches(path)).length;
  if (!matched)
    throw new LoreError(
      'INVALID_INPUT',
      `"${given}" matches no file Lore indexes in this workspace; nothing was written`,
      'paths and globs are relative to the workspace root, e.g. docs/operations/** or docs/ops/restore.md',
    );
  const repo = new WorkspaceRepoFiles(root);
  repo.write(KIND_RULES_FILE, withKindRule(repo.read(KIND_RULES_FILE) ?? '', glob, kind), { overwrite: true });
  return indexed(host, 'set', glob, kind, matched);
}

/** Removes the rule written for `target` (its glob exactly, or a file's path as Set Kind wrote it). */
export async function removeKind(host: KindWriteHost, root: string, target: unknown): Promise<KindChange> {
  const given = text('path', target);
  const repo = new WorkspaceRepoFiles(root);
  const before = repo.read(KIND_RULES_FILE) ?? '';
  const glob = [given, literalGlob(given)].find((g) => withoutKindRule(before, [g]).removed > 0);
  if (glob === undefined) {
    const rule = kindMatcher(parseKindRules(before).rules).ruleFor(given);
    throw new LoreError(
      'NOT_FOUND',
      `${KIND_RULES_FILE} has no rule for "${given}"; nothing was written`,
      rule
        ? `its kind comes from the rule "${rule.glob} ${rule.kind}" on line ${rule.line}: remove that one`
        : 'name the glob exactly as the rule writes it',
    );
  }
  repo.write(KIND_RULES_FILE, withoutKindRule(before, [glob]).text, { overwrite: true });
  const matches = globMatcher(glob);
  const matched = (await host.indexable()).filter((path) => matches(path)).length;
  return indexed(host, 'remove', glob, null, matched);
}

async function indexed(
  host: KindWriteHost,
  action: KindChange['action'],
  glob: string,
  kind: DocKind | null,
  matched: number,
): Promise<KindChange> {
  const { summary, status } = await host.reindex();
  const reclassified = summary.kind_rules?.reclassified ?? 0;
  return { action, file: KIND_RULES_FILE, glob, kind, files: matched, reclassified, status };
}

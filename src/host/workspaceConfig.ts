// The workspace's own Lore settings, committed with the repository in `.lore/config.json`, so a
// team shares what the index covers. Read fresh on every index run (a person edits it and
// re-indexes); a file that is not valid stops the run with the field at fault, and indexing
// never guesses around it.
//
//   { "index": { "include": ["notes/**/*.txt"], "exclude": ["legacy/**"],
//                "allow": ["deploy/staging.tfvars"], "defaults": true, "maxFileBytes": 1048576 } }

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { LoreError } from '../engine';
import {
  discoveryRulesFrom,
  MAX_INDEXED_BYTES,
  type DiscoveryConfig,
  type DiscoveryRules,
} from '../engine/indexing/discovery';

export const WORKSPACE_CONFIG = '.lore/config.json';

const GLOB_LISTS = ['include', 'exclude', 'allow'] as const;
const INDEX_FIELDS = new Set<string>([...GLOB_LISTS, 'defaults', 'maxFileBytes']);
const MAX_GLOBS = 200;

export interface WorkspaceConfig {
  index: DiscoveryConfig;
  /** The file it came from, or null when the workspace has none. */
  file: string | null;
}

function bad(file: string, what: string): never {
  throw new LoreError(
    'INVALID_INPUT',
    `${file}: ${what}`,
    `fix ${WORKSPACE_CONFIG} (see "Configuration" in Lore's README) or remove it to use the defaults`,
  );
}

function globList(file: string, field: string, value: unknown): string[] {
  if (!Array.isArray(value)) bad(file, `index.${field} must be a list of glob strings`);
  if (value.length > MAX_GLOBS) bad(file, `index.${field} has ${value.length} globs; at most ${MAX_GLOBS}`);
  return value.map((glob, i) => {
    if (typeof glob !== 'string' || glob.trim() === '')
      bad(file, `index.${field}[${i}] must be a non-empty glob string`);
    if (glob.startsWith('/') || glob.split('/').includes('..'))
      bad(file, `index.${field}[${i}] "${glob}" must be relative to the workspace (no leading "/" or "..")`);
    try {
      picomatch.makeRe(glob);
    } catch (error) {
      bad(file, `index.${field}[${i}] "${glob}" is not a valid glob (${(error as Error).message})`);
    }
    return glob;
  });
}

/** Parses and checks a config document; `file` names it in errors. */
export function parseWorkspaceConfig(text: string, file: string): DiscoveryConfig {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    bad(file, `not valid JSON (${(error as Error).message})`);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    bad(file, 'must be a JSON object such as {"index": {"include": ["notes/**/*.txt"]}}');
  const unknownTop = Object.keys(document).filter((k) => k !== 'index');
  if (unknownTop.length) bad(file, `unknown setting(s) ${unknownTop.join(', ')}; the only section is "index"`);
  const index = (document as { index?: unknown }).index;
  if (index === undefined) return {};
  if (typeof index !== 'object' || index === null || Array.isArray(index)) bad(file, 'index must be an object');
  const fields = index as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((k) => !INDEX_FIELDS.has(k));
  if (unknown.length)
    bad(file, `unknown index setting(s) ${unknown.join(', ')}; known: ${[...INDEX_FIELDS].join(', ')}`);
  const config: { -readonly [K in keyof DiscoveryConfig]: DiscoveryConfig[K] } = {};
  for (const field of GLOB_LISTS) if (fields[field] !== undefined) config[field] = globList(file, field, fields[field]);
  if (fields.defaults !== undefined) {
    if (typeof fields.defaults !== 'boolean') bad(file, 'index.defaults must be true or false');
    config.defaults = fields.defaults;
  }
  if (fields.maxFileBytes !== undefined) {
    const max = fields.maxFileBytes;
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > 16 * MAX_INDEXED_BYTES) {
      bad(file, `index.maxFileBytes must be a whole number of bytes from 1 to ${16 * MAX_INDEXED_BYTES}`);
    }
    config.maxFileBytes = max;
  }
  if (config.defaults === false && !config.include?.length)
    bad(file, 'index.defaults is false but index.include is empty, so nothing would be indexed');
  return config;
}

export function readWorkspaceConfig(root: string): WorkspaceConfig {
  const file = join(root, WORKSPACE_CONFIG);
  if (!existsSync(file)) return { index: {}, file: null };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    bad(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return { index: parseWorkspaceConfig(text, file), file };
}

/**
 * The discovery rules for a workspace: its config file, then `extra` globs from the editor's
 * settings added on top (lists concatenate; `defaults` and `maxFileBytes` from `extra` win).
 */
export function workspaceDiscoveryRules(root: string, extra: DiscoveryConfig = {}): DiscoveryRules {
  const { index } = readWorkspaceConfig(root);
  return discoveryRulesFrom({
    include: [...(index.include ?? []), ...(extra.include ?? [])],
    exclude: [...(index.exclude ?? []), ...(extra.exclude ?? [])],
    allow: [...(index.allow ?? []), ...(extra.allow ?? [])],
    defaults: extra.defaults ?? index.defaults,
    maxFileBytes: extra.maxFileBytes ?? index.maxFileBytes,
  });
}

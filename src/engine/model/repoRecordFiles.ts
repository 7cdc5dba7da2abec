// Where `.lore/` record files live (`.lore/<type>/<slug>.json`) and what bringing them in reports:
// the vocabulary the index (which skips and collects them) and the team feature (which writes,
// verifies and imports them) share without importing each other.

import { MEMORY_TYPES } from './types';

export const REPO_RECORD_DIR = '.lore';

export function repoRecordPath(key: string): string {
  return `${REPO_RECORD_DIR}/${key}.json`;
}

const RECORD_PATH = new RegExp(`^\\.lore/(${MEMORY_TYPES.join('|')})/[^/]+\\.json$`);

export function isRepoRecordPath(path: string): boolean {
  return RECORD_PATH.test(path);
}

export interface RepoRecordsSummary {
  files: number;
  imported: string[];
  unchanged: number;
  quarantined: string[];
  /** Record files whose key was edited in this store since: the local version is kept. */
  conflicts: { path: string; key: string }[];
  refused: { path: string; reason: string }[];
}

export function emptyRepoRecordsSummary(): RepoRecordsSummary {
  return { files: 0, imported: [], unchanged: 0, quarantined: [], conflicts: [], refused: [] };
}

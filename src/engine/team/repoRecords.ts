// `.lore/` records: memories promoted to the repository as signed files, one record per file at
// `.lore/<type>/<slug>.json` (a bundle of one, see team/bundleFormat). Git carries them to
// teammates; indexing reads them back, verifies them like an imported bundle and brings them into
// the store. A record file that fails verification is refused and named, never imported. The
// repository never overwrites a record edited in this store: that is reported as a conflict.

import { LoreError, isLoreError } from '../errors';
import type { EngineContext } from '../context';
import { repoRecordPath, type RepoRecordsSummary } from '../model/repoRecordFiles';
import type { Actor } from '../ports';
import { applyBundle } from './bundle';
import { readBundle } from './bundleFormat';

export {
  REPO_RECORD_DIR,
  emptyRepoRecordsSummary,
  isRepoRecordPath,
  repoRecordPath,
  type RepoRecordsSummary,
} from '../model/repoRecordFiles';

const REPOSITORY: Actor = { door: 'import', name: 'repository' };

/** Verifies one record file and brings it into the store; the outcome is added to `summary`. */
export function syncRepoRecord(ctx: EngineContext, path: string, text: string, summary: RepoRecordsSummary): void {
  summary.files++;
  try {
    const bundle = readBundle(text, path);
    if (bundle.records.length !== 1)
      throw new LoreError(
        'INVALID_INPUT',
        `it holds ${bundle.records.length} records; a record file holds exactly one`,
      );
    const key = bundle.records[0].key;
    if (repoRecordPath(key) !== path)
      throw new LoreError(
        'INTEGRITY',
        `it holds ${key}, whose file is ${repoRecordPath(key)} (a record file was moved or renamed)`,
      );
    const result = applyBundle(ctx, REPOSITORY, bundle, { dryRun: false, conflicts: 'keep-local-edits' });
    const item = result.items[0];
    // An older file (a checkout of an old commit, or a reverted file) leaves the newer record alone.
    if (item.action === 'unchanged' || item.action === 'older') summary.unchanged++;
    else if (item.action === 'conflict') summary.conflicts.push({ path, key });
    else summary.imported.push(key);
    summary.quarantined.push(...result.quarantined);
  } catch (error) {
    if (!isLoreError(error)) throw error;
    const reason = error.message.replace(/^.*? was refused, nothing was imported: /, '');
    summary.refused.push({ path, reason });
    ctx.logger.warn(`${path} refused: ${reason}`);
  }
}

// The evaluation's suites: the labelled corpora under ../shared/corpus (labels and files together)
// and the pinned public repositories of eval/repos.json (labels committed under eval/repos/<name>/,
// files checked out by eval/checkout.sh under LORE_EVAL_REPOS, default /work/evalrepos). A suite
// whose files are absent is reported as skipped, never silently dropped.

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export interface Suite {
  name: string;
  /** Folder with classes.tsv, drift.jsonl and (optionally) broken.tsv. */
  labels: string;
  /** Folder the label paths are relative to. */
  files: string;
  heldOut: boolean;
  /** owner/name on GitHub, as its git remote would say (URLs to it resolve here, others never). */
  repository?: string;
  /** Extra label folder (eval/repos/<name>) for a shared corpus: its broken.tsv. */
  extra?: string;
}

export interface PinnedRepo {
  name: string;
  repo: string;
  commit: string;
  licence: string;
  convention: string;
  heldOut?: boolean;
}

const EVAL_DIR = __dirname;

/** The shared corpus folder: LORE_EVAL_CORPORA, else the nearest `shared/corpus` above this checkout. */
export function sharedCorpora(): string | null {
  if (process.env.LORE_EVAL_CORPORA) return process.env.LORE_EVAL_CORPORA;
  for (let dir = resolve(EVAL_DIR, '..'); dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'corpus');
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

export function pinnedRepos(): PinnedRepo[] {
  return JSON.parse(readFileSync(join(EVAL_DIR, 'repos.json'), 'utf8')) as PinnedRepo[];
}

export function suites(reposDir = process.env.LORE_EVAL_REPOS ?? '/work/evalrepos'): {
  suites: Suite[];
  skipped: string[];
} {
  const found: Suite[] = [];
  const skipped: string[] = [];
  const shared = sharedCorpora();
  for (const name of ['alphagov-gsp', 'mixed-oss']) {
    const dir = shared ? join(shared, name) : null;
    if (!dir || !existsSync(join(dir, 'classes.tsv')))
      skipped.push(`${name}: no shared corpus (set LORE_EVAL_CORPORA)`);
    else
      found.push({
        name,
        labels: dir,
        files: join(dir, 'files'),
        heldOut: false,
        extra: join(EVAL_DIR, 'repos', name),
      });
  }
  for (const repo of pinnedRepos()) {
    const labels = join(EVAL_DIR, 'repos', repo.name);
    const files = join(reposDir, repo.name, 'files');
    // A labels folder without classes.tsv (broken.tsv only) is a false-alarm scan with no classification.
    if (!existsSync(labels)) skipped.push(`${repo.name}: not labelled yet`);
    else if (!existsSync(files) || !readdirSync(files).length)
      skipped.push(`${repo.name}: no checkout at ${files} (run eval/checkout.sh)`);
    else found.push({ name: repo.name, labels, files, heldOut: !!repo.heldOut, repository: repo.repo });
  }
  return { suites: found, skipped };
}

// The labelled repositories the kind model is trained and judged on: blind label folders
// (`<dir>/<name>/labels.tsv` and `source.json`, eval/kinds/README.md) from a list of directories
// (LORE_KIND_LABELS=dir1:dir2, default eval/kinds), their files checked out under LORE_EVAL_REPOS
// (default /work/evalrepos). With `legacy`, also the old non-blind classes.tsv suites (eval/repos and
// the shared corpora): for development only, never the reported figure.

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { discoveryMatcher } from '../../src/engine/indexing/discovery';
import { classifyContextOf, navFilesOf, type ClassifyContext } from '../../src/engine/indexing/classify';
import { DOC_KINDS, type DocKind } from '../../src/engine/model/kinds';
import { suites } from '../suites';

export type LabelSet = 'dev' | 'held-out' | 'legacy';

export interface LabelledRepo {
  name: string;
  set: LabelSet;
  /** Folder the label paths are relative to. */
  files: string;
  rows: Array<{ path: string; kind: DocKind }>;
  /** Labelled paths with no file at the checkout, left out. */
  missing: string[];
  /**
   * Its misses or files were read while the features were changed (`"misses_read": true` in
   * source.json): no longer held out, whatever its set, and marked so beside its figure.
   */
  missesRead: boolean;
}

export function labelDirs(): string[] {
  const fromEnv = process.env.LORE_KIND_LABELS;
  return fromEnv ? fromEnv.split(':').filter(Boolean) : [join(__dirname)];
}

export function reposDir(): string {
  return process.env.LORE_EVAL_REPOS ?? '/work/evalrepos';
}

function readRows(file: string, files: string, name: string): Pick<LabelledRepo, 'rows' | 'missing'> {
  const rows: LabelledRepo['rows'] = [];
  const missing: string[] = [];
  const lines = readFileSync(file, 'utf8').split('\n').slice(1);
  for (const line of lines) {
    const [path, kind] = line.split('\t');
    if (!path?.trim()) continue;
    if (!(DOC_KINDS as readonly string[]).includes(kind?.trim()))
      throw new Error(`${file}: "${kind}" is not a kind (${name}, ${path}); kinds: ${DOC_KINDS.join(' ')}`);
    if (existsSync(join(files, path))) rows.push({ path, kind: kind.trim() as DocKind });
    else missing.push(path);
  }
  return { rows, missing };
}

/** Every labelled repository with a checkout, in a fixed order (by name); what was skipped and why. */
export function labelledRepos(
  dirs = labelDirs(),
  options: { legacy?: boolean; repos?: string } = {},
): { repos: LabelledRepo[]; skipped: string[] } {
  const repos: LabelledRepo[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  for (const dir of dirs) {
    if (!existsSync(dir)) {
      skipped.push(`${dir}: no such label directory`);
      continue;
    }
    for (const name of readdirSync(dir).sort()) {
      const labels = join(dir, name, 'labels.tsv');
      if (!existsSync(labels)) continue;
      if (seen.has(name)) {
        skipped.push(`${name}: labelled twice (${dir} left out)`);
        continue;
      }
      const sourceFile = join(dir, name, 'source.json');
      const source = existsSync(sourceFile)
        ? (JSON.parse(readFileSync(sourceFile, 'utf8')) as { set?: string; misses_read?: boolean })
        : {};
      const files = join(options.repos ?? reposDir(), name, 'files');
      if (!existsSync(files)) {
        skipped.push(`${name}: no checkout at ${files}`);
        continue;
      }
      seen.add(name);
      const set: LabelSet = source.set === 'dev' ? 'dev' : 'held-out';
      repos.push({ name, set, files, missesRead: source.misses_read === true, ...readRows(labels, files, name) });
    }
  }
  if (options.legacy) {
    for (const suite of suites(options.repos).suites) {
      const classes = join(suite.labels, 'classes.tsv');
      if (!existsSync(classes) || seen.has(suite.name)) continue;
      seen.add(suite.name);
      repos.push({
        name: suite.name,
        set: 'legacy',
        files: suite.files,
        missesRead: true,
        ...readRows(classes, suite.files, suite.name),
      });
    }
  }
  repos.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { repos, skipped };
}

function walk(dir: string, root = dir, out: string[] = []): string[] {
  // Links are not followed (a checkout may hold dangling ones), as the workspace walk does not.
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    if (entry.name === '.git') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, root, out);
    else if (entry.isFile()) out.push(relative(root, path).split('\\').join('/'));
  }
  return out;
}

/** What the indexer knows of the repository before reading a file: the paths it lists, their shapes, the nav. */
export function repoContext(files: string): ClassifyContext & { paths: string[] } {
  const matcher = discoveryMatcher();
  const paths = walk(files).filter((p) => matcher.accepts(p));
  const nav = navFilesOf(paths).map((path) => ({ path, text: readFileSync(join(files, path), 'utf8') }));
  return { ...classifyContextOf(paths, nav), paths };
}

// A cache of the kind model's features for the labelled evaluation (leave one repository out reads
// every labelled file and its folder's neighbours; on a loaded machine that was most of a run). A
// file's features depend only on its path, its text, its folder's shape and its navigation words
// (kindFeatures.ts), so each entry is keyed by a hash of exactly those, under a version that hashes
// the source of the code that computes them: edit a feature and every entry is new. Kept outside the
// repository (LORE_KIND_CACHE, default $LORE_EVAL_REPOS/.kindcache for the checkouts there), one file
// per repository and code version; LORE_KIND_CACHE=off reads and writes nothing. The features are the same numbers as
// computed afresh (JSON keeps a double exactly), in the same order, so results do not change.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { kindFeatures, type FeatureInput, type Features } from '../../src/engine/indexing/kindFeatures';
import { dirName } from '../../src/engine/text/paths';
import { reposDir } from './dataset';

const SRC = join(__dirname, '..', '..', 'src', 'engine');

/** The source files feature extraction runs (and the definitions deciding which files are samples). */
function featureSources(): string[] {
  const indexing = join(SRC, 'indexing');
  const text = join(SRC, 'text');
  return [
    ...readdirSync(indexing)
      .filter((f) => /^(kind(Features|Conventions|Rules)|classify|procedure|discovery)\.ts$/.test(f))
      .map((f) => join(indexing, f)),
    ...readdirSync(text)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => join(text, f)),
    join(SRC, 'model', 'kinds.ts'),
  ].sort();
}

let version: string | null = null;

/** A hash of the feature code's source: the cache's version. */
export function featureCodeVersion(): string {
  if (!version) {
    const hash = createHash('sha256');
    for (const file of featureSources()) hash.update(file.slice(SRC.length)).update('\0').update(readFileSync(file));
    version = hash.digest('hex').slice(0, 16);
  }
  return version;
}

/**
 * Where a repository's features are cached: LORE_KIND_CACHE (`off`: nowhere), else beside the
 * evaluation's checkouts when the files are one of them (never inside a test's fixtures).
 */
export function cacheDir(files: string): string | null {
  const set = process.env.LORE_KIND_CACHE;
  if (set) return set === 'off' ? null : set;
  const repos = resolve(reposDir());
  return resolve(files).startsWith(`${repos}${sep}`) ? join(repos, '.kindcache') : null;
}

type Entry = Array<[string, number]>;

/** One repository's cached features: loaded on first use, written back by `save`. */
export class FeatureCache {
  private entries = new Map<string, Entry>();
  private dirty = false;
  hits = 0;
  misses = 0;

  constructor(private readonly file: string | null) {
    if (file && existsSync(file))
      this.entries = new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, Entry>));
  }

  static forRepo(name: string, files: string): FeatureCache {
    const dir = cacheDir(files);
    return new FeatureCache(dir ? join(dir, featureCodeVersion(), `${name}.json`) : null);
  }

  /** A file's features, from the cache when its path, text and surroundings are unchanged. */
  features(input: FeatureInput): Features {
    if (!this.file) return kindFeatures(input);
    const folder = input.conventions?.folders.get(dirName(input.path));
    const nav = input.conventions?.nav.get(input.path);
    const key = createHash('sha256')
      .update(input.path)
      .update('\0')
      .update(input.text)
      .update('\0')
      .update(JSON.stringify([input.conventions ? 1 : 0, folder ?? null, nav ?? null]))
      .digest('hex');
    const hit = this.entries.get(key);
    if (hit) {
      this.hits++;
      return new Map(hit);
    }
    this.misses++;
    const features = kindFeatures(input);
    this.entries.set(key, [...features]);
    this.dirty = true;
    return features;
  }

  save(): void {
    if (!this.file || !this.dirty) return;
    mkdirSync(join(this.file, '..'), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(Object.fromEntries(this.entries)));
    renameSync(temporary, this.file);
    this.dirty = false;
  }
}

// The kind classifier's second pass (issue 23, point 4): a repository's own convention, learned when
// it is indexed. A prose page's first reading comes from its own text (kindModel.ts); the second
// weighs it against what its folder's confident siblings read as (`pull:<kind>`, a folder of
// proposals, of alert pages) and what files of the same name in the folders beside its own read as
// (`cousin:<kind>`, `keps/*/README.md`). A small second model, trained by `npm run train:kinds` from
// the same labels (kindSiblingWeights.json), decides. It needs no text: only each document's own
// reading, which the index stores (docs.kind_own), so an unchanged file is never re-read.

import type { DocKind } from '../model/kinds';
import { PROSE_KINDS } from '../model/kinds';
import { baseName, dirName } from '../text/paths';
import type { SqlDatabase } from '../ports';
import { kindStates, updateKind, type KindUpdate, type StoredKind } from './docStore';
import type { Features } from './kindFeatures';
import {
  closeRunnerUp,
  predictKind,
  type KindOffset,
  type KindVerdict,
  type KindWeights,
  type Signal,
} from './kindModel';
import shippedSiblingWeights from './kindSiblingWeights.json';

/** A document's first reading, from its own text: its top kinds with their probabilities, and why. */
export interface OwnReading {
  scores: Array<[DocKind, number]>;
  signals: string[];
}

/** What the second pass knows of a document in the index: its path and its own reading's kind. */
export interface Neighbour {
  path: string;
  kind: DocKind;
  /** The probability of `kind` in its own reading (1: a kind by definition or by a person's rule). */
  confidence: number;
}

/**
 * Whether the index runs the second pass unless told otherwise. Off: with the folder's pull learnt as
 * an agreement weight (never towards another kind, never moving a firm page) it no longer costs the
 * held-out repositories, but it has not yet been shown to gain on them (docs/kinds-round3.md). The
 * indexer's `siblings` option and `npm run eval -- --only-kinds --siblings` turn it on.
 */
export const SIBLING_PASS = false;

/** A sibling counts only when its own reading is at least this sure. */
export const CONFIDENT_SIBLING = 0.5;

/** How many of a reading's kinds are kept (the rest are below a few percent and say nothing). */
const KEPT_SCORES = 3;

/** A kind outside a reading's top few is taken as this probable. */
const FLOOR = 0.01;

/**
 * A page its own text reads this surely is never moved by its neighbours: the folder weighs in only
 * where the page itself is a close call (a folder of incident pages must not turn a clear guide).
 */
export const FIRM_READING = 0.9;

/**
 * A kind the page's own reading gives at least this probability is one its neighbours may pull it
 * towards; a folder never makes a page a kind its own text does not already consider.
 */
export const OPEN_READING = 0.05;

const SHIPPED = shippedSiblingWeights as unknown as KindWeights;

/** The first reading of a model verdict (its scores and signals), or null for a rule's kind. */
export function ownReadingOf(verdict: KindVerdict): OwnReading | null {
  const scores = verdict.scores;
  if (verdict.by !== 'model' || !scores?.length) return null;
  const signals = verdict.signals.filter((s) => s.weight > 0).map((s) => s.words);
  return { scores: scores.slice(0, KEPT_SCORES).map(([k, p]) => [k, Math.round(p * 1e4) / 1e4]), signals };
}

/** The first reading as the index stores it (docs.kind_own). */
export function storedOwnReading(reading: OwnReading | null): string | null {
  return reading ? JSON.stringify({ p: reading.scores, s: reading.signals.slice(0, 3) }) : null;
}

export function parseOwnReading(text: string | null): OwnReading | null {
  if (!text) return null;
  try {
    const parsed = JSON.parse(text) as { p?: Array<[DocKind, number]>; s?: string[] };
    return Array.isArray(parsed.p) && parsed.p.length ? { scores: parsed.p, signals: parsed.s ?? [] } : null;
  } catch {
    return null;
  }
}

interface Group {
  /** Confidence summed per kind over the members sure enough to count. */
  sums: Map<DocKind, number>;
  /** How many members sure enough to count, per kind. */
  counts: Map<DocKind, number>;
  members: number;
}

/** The documents of an index grouped by folder and by name-beside-folder, with running sums per kind. */
export class NeighbourIndex {
  private readonly folders = new Map<string, Group>();
  private readonly cousins = new Map<string, Group>();
  private readonly own = new Map<string, Neighbour>();

  constructor(neighbours: Iterable<Neighbour>) {
    for (const n of neighbours) {
      this.own.set(n.path, n);
      for (const [map, key] of [
        [this.folders, dirName(n.path)],
        [this.cousins, cousinKey(n.path)],
      ] as const) {
        const group = map.get(key) ?? map.set(key, { sums: new Map(), counts: new Map(), members: 0 }).get(key)!;
        group.members++;
        if (n.confidence < CONFIDENT_SIBLING) continue;
        group.sums.set(n.kind, (group.sums.get(n.kind) ?? 0) + n.confidence);
        group.counts.set(n.kind, (group.counts.get(n.kind) ?? 0) + 1);
      }
    }
  }

  /** `pull:<kind>` (its folder) and `cousin:<kind>` (its name beside its folder): shares, itself left out. */
  addPulls(f: Features, path: string): void {
    const self = this.own.get(path);
    pull(f, 'pull', this.folders.get(dirName(path)), self);
    pull(f, 'cousin', this.cousins.get(cousinKey(path)), self);
  }

  /** A pull feature in plain words with its count: “its folder’s confident siblings are adr pages (4 of 5)”. */
  describe(path: string, feature: string, words: string): string {
    const [prefix, kind] = feature.split(':') as [string, DocKind];
    const group = prefix === 'pull' ? this.folders.get(dirName(path)) : this.cousins.get(cousinKey(path));
    const self = this.own.get(path);
    if (!group || !self) return words;
    const mine = self.kind === kind && self.confidence >= CONFIDENT_SIBLING ? 1 : 0;
    return `${words} (${(group.counts.get(kind) ?? 0) - mine} of ${group.members - 1})`;
  }
}

/** `a/b/c/README.md` → `a/b` + `README.md`: the same name in the folders beside its own. */
function cousinKey(path: string): string {
  return `${dirName(dirName(path))}\u0000${baseName(path).toLowerCase()}`;
}

function pull(f: Features, prefix: string, group: Group | undefined, self: Neighbour | undefined): void {
  if (!group) return;
  const others = group.members - (self ? 1 : 0);
  if (others <= 0) return;
  // One more than the others in the denominator: a lone sibling is weaker evidence than ten agreeing.
  for (const [kind, sum] of group.sums) {
    const mine = self && self.kind === kind && self.confidence >= CONFIDENT_SIBLING ? self.confidence : 0;
    const share = (sum - mine) / (others + 1);
    if (share > 0) f.set(`${prefix}:${kind}`, share);
  }
}

/** The kinds a page's neighbours may pull it towards: the prose kinds among its own top readings. */
export function openKinds(own: OwnReading): Set<DocKind> {
  return new Set(own.scores.filter(([k, p]) => p >= OPEN_READING && PROSE_KINDS.includes(k)).map(([k]) => k));
}

/**
 * The second model's inputs: what the page's neighbours read as, only for the kinds its own reading
 * holds open (openKinds). The second model weighs each neighbour share only towards its own kind
 * (`pull:rfc` counts for rfc and nothing else), so neighbours can only agree, never redirect.
 */
export function siblingFeatures(path: string, neighbours: NeighbourIndex, own: OwnReading): Features {
  const f: Features = new Map();
  neighbours.addPulls(f, path);
  const open = openKinds(own);
  for (const name of [...f.keys()]) if (!open.has(name.slice(name.indexOf(':') + 1) as DocKind)) f.delete(name);
  return f;
}

/**
 * Where the second model starts: the page's own reading as log-probabilities (a kind outside its
 * top few at FLOOR), so its weights learn only how far the neighbours move it.
 */
export function ownOffset(own: OwnReading): KindOffset {
  const offset: KindOffset = {};
  for (const kind of PROSE_KINDS) offset[kind] = Math.log(FLOOR);
  for (const [kind, p] of own.scores) offset[kind] = Math.log(Math.max(p, FLOOR));
  return offset;
}

/**
 * Whether a page's first reading is one the second pass judges: a prose kind (its chunks stay prose)
 * read less surely than FIRM_READING.
 */
export function reconsidered(own: OwnReading): boolean {
  return PROSE_KINDS.includes(own.scores[0][0]) && own.scores[0][1] < FIRM_READING;
}

/** A page's own reading as a verdict: what the indexer wrote before any neighbour weighed in. */
function ownVerdict(own: OwnReading): KindVerdict {
  const [[kind, confidence], runnerUp] = own.scores;
  return {
    kind,
    confidence,
    runnerUp: runnerUp?.[0] ?? null,
    runnerUpConfidence: runnerUp?.[1] ?? 0,
    by: 'model',
    signals: own.signals.map((words) => ({ feature: 'own', weight: 1, words })),
  };
}

/** A share of the margin this large is named even where the neighbours agree with the page's own reading. */
const BACKING = 0.5;

export interface SiblingVerdict {
  verdict: KindVerdict;
  /** The neighbours' signals for the kind (their share of the margin over the runner-up), largest first. */
  pulls: Signal[];
  /** The neighbours changed the page's own reading, or backed it with a large share of the margin. */
  bySiblings: boolean;
}

/**
 * A prose page's kind, second reading: its own reading weighed with its neighbours'. The signals are
 * the neighbours' (where they counted for the kind) then the page's own.
 */
export function siblingVerdict(
  path: string,
  own: OwnReading,
  neighbours: NeighbourIndex,
  weights: KindWeights = SHIPPED,
): SiblingVerdict {
  const weighed = predictKind(weights, siblingFeatures(path, neighbours, own), true, ownOffset(own));
  // Whatever the weights learnt, the neighbours may only settle a page on a kind its own text holds open.
  const verdict = openKinds(own).has(weighed.kind) ? weighed : ownVerdict(own);
  const pulls = verdict.signals
    .filter((s) => s.weight > 0 && /^(pull|cousin):/.test(s.feature))
    .map((s) => ({ ...s, words: neighbours.describe(path, s.feature, s.words) }));
  const bySiblings = verdict.kind !== own.scores[0][0] || pulls.some((s) => s.weight >= BACKING);
  const ownSignals = own.signals.map((words) => ({ feature: 'own', weight: 0, words }));
  verdict.signals = [...(bySiblings ? pulls.slice(0, 1) : []), ...ownSignals];
  return { verdict, pulls, bySiblings };
}

/**
 * The second pass over an index: each prose document's kind from its stored own reading and its
 * neighbours' stored readings. Returns the documents whose stored kind, confidence, runner-up or
 * signals change; documents decided by a definition or a person's rule are neighbours, never changed.
 */
export function reconsiderKinds(rows: readonly StoredKind[], weights: KindWeights = SHIPPED): KindUpdate[] {
  const readings = new Map<number, OwnReading>();
  const neighbours: Neighbour[] = rows.map((row) => {
    const own = parseOwnReading(row.kind_own);
    if (own) readings.set(row.id, own);
    return own
      ? { path: row.path, kind: own.scores[0][0], confidence: own.scores[0][1] }
      : { path: row.path, kind: row.kind, confidence: row.kind_confidence ?? 1 };
  });
  const index = new NeighbourIndex(neighbours);
  const updates: KindUpdate[] = [];
  for (const row of rows) {
    const own = readings.get(row.id);
    if (!own || !PROSE_KINDS.includes(own.scores[0][0])) continue;
    // A firm reading stands as the page's own text gave it; where an earlier pass had moved it, it goes back.
    if (!reconsidered(own) && row.kind === own.scores[0][0]) continue;
    const verdict = reconsidered(own) ? siblingVerdict(row.path, own, index, weights).verdict : ownVerdict(own);
    const update: KindUpdate = {
      id: row.id,
      path: row.path,
      kind: verdict.kind,
      confidence: Math.round(verdict.confidence * 1e4) / 1e4,
      runnerUp: closeRunnerUp(verdict),
      signals: verdict.signals.length
        ? verdict.signals
            .map((s) => s.words)
            .slice(0, 3)
            .join('; ')
        : null,
    };
    if (
      update.kind !== row.kind ||
      update.confidence !== row.kind_confidence ||
      update.runnerUp !== row.kind_runner_up ||
      update.signals !== row.kind_signals
    )
      updates.push(update);
  }
  return updates;
}

/**
 * The second pass, run by the indexer after its loop: every prose document's kind weighed with its
 * neighbours' stored readings, written where it changed, in one transaction. Returns the paths
 * whose kind changed.
 */
export function reconsiderBySiblings(db: SqlDatabase, weights: KindWeights = SHIPPED): string[] {
  return db.transaction(() => {
    const rows = kindStates(db);
    const before = new Map(rows.map((r) => [r.id, r.kind]));
    const updates = reconsiderKinds(rows, weights);
    for (const u of updates) updateKind(db, u);
    return updates.filter((u) => u.kind !== before.get(u.id)).map((u) => u.path);
  });
}

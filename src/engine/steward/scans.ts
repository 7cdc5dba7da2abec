// The steward's scans over the live records (active, deprecated, disputed): duplicates (exact and
// near), conflicts (one fact key or one anchor, differing content), stale records (review due,
// unverified too long, anchors drifted) and dead-end collisions (an active decision that repeats a
// recorded dead end). Pure functions over records already read and verified; nothing here writes.

import type { Basis, Memory, MemoryType } from '../model/types';
import { RESEMBLANCE_THRESHOLD, deadEndProbes, deadEndStems, resemblance } from '../record/deadEnds';
import { stems } from '../text/words';
import type { DriftSignal } from './driftSignal';
import {
  NEAR_DUPLICATE_SIMILARITY,
  SAME_TOPIC_SIMILARITY,
  anchorPath,
  cosine,
  negated,
  round,
  sharedTerms,
  substanceDigest,
  termVector,
  type TermVector,
} from '../model/similarity';
import type { Finding, StaleReason } from './types';
import { valueConflict } from '../model/valueConflict';

/** Days without a new version or re-verification after which an active record counts as unverified. */
export const DEFAULT_UNVERIFIED_DAYS = 180;
/** Each record offers this many of its rarest stems as blocking keys for near-duplicate pairs. */
const BLOCKING_STEMS = 6;
/** A stem shared by more records than this is too common to propose pairs. */
const MAX_POSTING = 200;
/** Records compared pairwise per anchor; a busier anchor keeps its most recently updated ones. */
const MAX_ANCHOR_GROUP = 100;

/** Types whose records state how things are or should be, so two differing ones can contradict. */
const CONFLICT_TYPES: readonly MemoryType[] = ['decision', 'convention', 'fact', 'runbook', 'preference'];
/** Records about the past (what happened) do not go stale by age. */
const AGELESS_TYPES: readonly MemoryType[] = ['incident', 'postmortem'];

const BASIS_RANK: Record<Basis, number> = { verified: 4, declared: 3, observed: 2, unstated: 1, inferred: 0 };

export interface ScanOptions {
  now: string;
  unverifiedDays?: number;
  /** Drift findings by memory key; null when drift findings are not available. */
  drift: Map<string, DriftSignal[]> | null;
  /**
   * When each record was last re-verified against its anchors, by key (a re-verification need not make a new version).
   */
  verifiedAt?: Map<string, string>;
}

const at = (m: Memory) => `${m.key}@${m.version}`;
const versionsOf = (ms: Memory[]) => Object.fromEntries(ms.map((m) => [m.key, m.version]));

/** The record a merge keeps: active first, then the stronger basis, then the older, then the key. */
export function survivorOrder(a: Memory, b: Memory): number {
  return (
    Number(b.status === 'active') - Number(a.status === 'active') ||
    BASIS_RANK[b.basis] - BASIS_RANK[a.basis] ||
    (a.valid_from < b.valid_from ? -1 : a.valid_from > b.valid_from ? 1 : 0) ||
    (a.key < b.key ? -1 : 1)
  );
}

const byAge = (a: Memory, b: Memory) =>
  a.valid_from < b.valid_from
    ? -1
    : a.valid_from > b.valid_from
      ? 1
      : a.recorded_at < b.recorded_at
        ? -1
        : a.recorded_at > b.recorded_at
          ? 1
          : a.key < b.key
            ? -1
            : 1;

export function findDuplicates(records: Memory[], vectors: Map<string, TermVector>): Finding[] {
  const findings: Finding[] = [];
  const bySubstance = new Map<string, Memory[]>();
  for (const m of records) {
    const digest = substanceDigest(m);
    const group = bySubstance.get(digest);
    if (group) group.push(m);
    else bySubstance.set(digest, [m]);
  }
  const exactGroup = new Map<string, string>();
  for (const [digest, group] of bySubstance) {
    if (group.length < 2) continue;
    const ordered = [...group].sort(survivorOrder);
    for (const m of ordered) exactGroup.set(m.key, digest);
    findings.push({
      kind: 'duplicate',
      keys: ordered.map((m) => m.key),
      summary: `${ordered.length} records say exactly the same thing ("${ordered[0].title}"); keep ${ordered[0].key}`,
      evidence: {
        exact: true,
        substance_digest: digest,
        versions: versionsOf(ordered),
        statuses: Object.fromEntries(ordered.map((m) => [m.key, m.status])),
      },
      fingerprint: `duplicate:exact:${ordered.map(at).sort().join(',')}`,
      actions: ['merge', 'dismiss'],
    });
  }

  const byKey = new Map(records.map((m) => [m.key, m]));
  for (const [a, b] of candidatePairs(records, vectors)) {
    const ma = byKey.get(a)!;
    const mb = byKey.get(b)!;
    if (ma.type !== mb.type) continue;
    if (exactGroup.has(a) && exactGroup.get(a) === exactGroup.get(b)) continue;
    const similarity = cosine(vectors.get(a)!, vectors.get(b)!);
    if (similarity < NEAR_DUPLICATE_SIMILARITY) continue;
    const [keep, other] = [ma, mb].sort(survivorOrder);
    findings.push({
      kind: 'duplicate',
      keys: [keep.key, other.key],
      summary: `${other.key} nearly repeats ${keep.key} (similarity ${round(similarity)})`,
      evidence: {
        exact: false,
        similarity: round(similarity),
        threshold: NEAR_DUPLICATE_SIMILARITY,
        shared_terms: sharedTerms(vectors.get(a)!, vectors.get(b)!),
        versions: versionsOf([keep, other]),
      },
      fingerprint: `duplicate:near:${[at(keep), at(other)].sort().join(',')}`,
      actions: ['merge', 'dismiss'],
    });
  }
  return findings;
}

/**
 * Pairs worth comparing, without comparing every record with every other: each record posts its
 * rarest stems (within its type) and records sharing a posting become a pair. Near duplicates share
 * most of their stems, so they meet on at least one rare one.
 */
function candidatePairs(records: Memory[], vectors: Map<string, TermVector>): Array<[string, string]> {
  const df = new Map<string, number>();
  for (const m of records)
    for (const s of vectors.get(m.key)!.keys()) df.set(`${m.type}:${s}`, (df.get(`${m.type}:${s}`) ?? 0) + 1);
  const postings = new Map<string, string[]>();
  for (const m of records) {
    const rare = [...vectors.get(m.key)!.keys()]
      .map((s) => `${m.type}:${s}`)
      .filter((k) => df.get(k)! > 1 && df.get(k)! <= MAX_POSTING)
      .sort((x, y) => df.get(x)! - df.get(y)! || (x < y ? -1 : 1))
      .slice(0, BLOCKING_STEMS);
    for (const k of rare) {
      const posting = postings.get(k);
      if (posting) posting.push(m.key);
      else postings.set(k, [m.key]);
    }
  }
  const pairs = new Map<string, [string, string]>();
  for (const keys of postings.values()) {
    for (let i = 0; i < keys.length; i++) {
      for (let j = i + 1; j < keys.length; j++) {
        const [x, y] = keys[i] < keys[j] ? [keys[i], keys[j]] : [keys[j], keys[i]];
        pairs.set(`${x}\n${y}`, [x, y]);
      }
    }
  }
  return [...pairs.values()];
}

export function findConflicts(records: Memory[], vectors: Map<string, TermVector>): Finding[] {
  const findings: Finding[] = [];
  const byKey = new Map(records.map((m) => [m.key, m]));
  const reported = new Set<string>();

  const byFactKey = new Map<string, Memory[]>();
  for (const m of records) if (m.fact_key) byFactKey.set(m.fact_key, [...(byFactKey.get(m.fact_key) ?? []), m]);
  for (const [factKey, group] of byFactKey) {
    if (group.length < 2 || new Set(group.map(substanceDigest)).size < 2) continue;
    const ordered = [...group].sort(byAge);
    const newest = ordered[ordered.length - 1];
    for (let i = 0; i < ordered.length; i++)
      for (let j = i + 1; j < ordered.length; j++) reported.add(`${ordered[i].key}\n${ordered[j].key}`);
    findings.push({
      kind: 'conflict',
      keys: ordered.map((m) => m.key),
      summary: `${ordered.length} live records state the fact "${factKey}" differently; the newest is ${newest.key}`,
      evidence: {
        fact_key: factKey,
        versions: versionsOf(ordered),
        valid_from: Object.fromEntries(ordered.map((m) => [m.key, m.valid_from])),
      },
      fingerprint: `conflict:fact:${factKey}:${ordered.map(at).sort().join(',')}`,
      actions: ['supersede', 'dispute', 'dismiss'],
    });
  }

  const byAnchor = new Map<string, Memory[]>();
  for (const m of records) {
    if (!CONFLICT_TYPES.includes(m.type)) continue;
    for (const path of new Set(m.anchors.map(anchorPath))) {
      const group = byAnchor.get(path);
      if (group) group.push(m);
      else byAnchor.set(path, [m]);
    }
  }
  for (const [anchor, all] of [...byAnchor].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const group =
      all.length > MAX_ANCHOR_GROUP
        ? [...all].sort((a, b) => (a.updated_at > b.updated_at ? -1 : 1)).slice(0, MAX_ANCHOR_GROUP)
        : all;
    for (let i = 0; i < group.length; i++) {
      for (let j = i + 1; j < group.length; j++) {
        const [older, newer] = [group[i], group[j]].sort(byAge);
        const pair = [older.key, newer.key].sort().join('\n');
        if (older.type !== newer.type || reported.has(pair)) continue;
        const similarity = cosine(vectors.get(older.key)!, vectors.get(newer.key)!);
        // Alike enough to be about one thing, unlike enough not to be one record said twice.
        if (similarity < SAME_TOPIC_SIMILARITY || similarity >= NEAR_DUPLICATE_SIMILARITY) continue;
        if (substanceDigest(older) === substanceDigest(newer)) continue;
        reported.add(pair);
        const polarity = { [older.key]: negated(older), [newer.key]: negated(newer) };
        const opposed = polarity[older.key] !== polarity[newer.key];
        findings.push({
          kind: 'conflict',
          keys: [older.key, newer.key],
          summary:
            `${older.key} and ${newer.key} both concern ${anchor} and say ` +
            `different things${opposed ? ' (one of them says not to)' : ''}`,
          evidence: {
            anchor,
            similarity: round(similarity),
            shared_terms: sharedTerms(vectors.get(older.key)!, vectors.get(newer.key)!),
            negated: polarity,
            versions: versionsOf([older, newer]),
          },
          fingerprint: `conflict:anchor:${anchor}:${[at(older), at(newer)].sort().join(',')}`,
          actions: ['supersede', 'dispute', 'dismiss'],
        });
      }
    }
  }
  // No fact key and no anchor in common: one subject, two different values of one exclusive kind.
  for (const [x, y] of candidatePairs(
    records.filter((m) => CONFLICT_TYPES.includes(m.type)),
    vectors,
  )) {
    const pair = [x, y].sort().join('\n');
    if (reported.has(pair)) continue;
    const [older, newer] = [byKey.get(x)!, byKey.get(y)!].sort(byAge);
    if (older.type !== newer.type || (older.fact_key && older.fact_key === newer.fact_key)) continue;
    const conflict = valueConflict(older, newer);
    if (!conflict) continue;
    reported.add(pair);
    findings.push({
      kind: 'conflict',
      keys: [older.key, newer.key],
      summary:
        `${older.key} and ${newer.key} state different ${conflict.kind}s ` +
        `(${conflict.values[0].join(', ')} / ` +
        `${conflict.values[1].join(', ')}) about ` +
        `${conflict.shared_subject.join(' ')}; the newer is ${newer.key}`,
      evidence: {
        value_kind: conflict.kind,
        values: { [older.key]: conflict.values[0], [newer.key]: conflict.values[1] },
        shared_terms: conflict.shared_subject,
        versions: versionsOf([older, newer]),
      },
      fingerprint: `conflict:value:${[at(older), at(newer)].sort().join(',')}`,
      actions: ['supersede', 'dispute', 'dismiss'],
    });
  }
  return findings;
}

export function findStale(records: Memory[], options: ScanOptions): Finding[] {
  const days = options.unverifiedDays ?? DEFAULT_UNVERIFIED_DAYS;
  const cutoff = new Date(new Date(options.now).getTime() - days * 86_400_000).toISOString();
  const findings: Finding[] = [];
  for (const m of records) {
    if (m.status !== 'active') continue;
    const reasons: StaleReason[] = [];
    const verified = options.verifiedAt?.get(m.key);
    const confirmed = verified && verified > m.updated_at ? verified : m.updated_at;
    // `versions`, like every finding's: resolving the item refuses once the record moved on.
    const evidence: Record<string, unknown> = {
      version: m.version,
      versions: { [m.key]: m.version },
      basis: m.basis,
      updated_at: m.updated_at,
      ...(verified ? { verified_at: verified } : {}),
    };
    if (m.review_after && m.review_after <= options.now) {
      reasons.push('review_due');
      evidence.review_after = m.review_after;
    } else if (!m.review_after && !AGELESS_TYPES.includes(m.type) && confirmed <= cutoff) {
      // A review date in the future is the author's own schedule; it wins over the age rule.
      reasons.push('unverified');
      evidence.unverified_days = days;
    }
    const drifted = options.drift?.get(m.key) ?? [];
    if (drifted.length) {
      reasons.push('anchor_drift');
      evidence.drift = drifted;
    }
    if (!reasons.length) continue;
    evidence.reasons = reasons;
    const what = reasons.map((r) =>
      r === 'review_due'
        ? `its review date ${m.review_after} has passed`
        : r === 'unverified'
          ? `it has not been updated or re-verified for ${days} days`
          : `${drifted.length} of its references drifted (${[...new Set(drifted.map((d) => d.state))].join(', ')})`,
    );
    findings.push({
      kind: 'stale',
      keys: [m.key],
      summary: `${m.key} may be out of date: ${what.join('; ')}`,
      evidence,
      fingerprint: `stale:${at(m)}:${reasons.join('+')}${
        drifted.length
          ? `:${drifted
              .map((d) => `${d.finding_id}=${d.state}`)
              .sort()
              .join(',')}`
          : ''
      }`,
      actions: ['deprecate', 'dispute', 'dismiss'],
    });
  }
  return findings;
}

export function findDeadEndCollisions(records: Memory[]): Finding[] {
  const deadEnds = records.filter((m) => m.type === 'dead_end').map((m) => ({ m, terms: deadEndStems(m) }));
  if (!deadEnds.length) return [];
  // Only dead ends sharing a stem with a decision can resemble it: look them up by stem rather
  // than comparing every decision with every dead end.
  const byStem = new Map<string, number[]>();
  deadEnds.forEach((dead, i) => {
    for (const s of dead.terms) {
      const list = byStem.get(s);
      if (list) list.push(i);
      else byStem.set(s, [i]);
    }
  });
  const findings: Finding[] = [];
  for (const d of records) {
    if (d.type !== 'decision' || d.status !== 'active') continue;
    // The probes a save uses.
    const probes = deadEndProbes(d)
      .map(stems)
      .filter((p) => p.size);
    const sharing = new Set<number>();
    for (const probe of probes) for (const s of probe) for (const i of byStem.get(s) ?? []) sharing.add(i);
    for (const dead of [...sharing].sort((a, b) => a - b).map((i) => deadEnds[i])) {
      const score = Math.max(0, ...probes.map((p) => resemblance(p, dead.terms)));
      if (score < RESEMBLANCE_THRESHOLD) continue;
      findings.push({
        kind: 'dead_end_collision',
        keys: [d.key, dead.m.key],
        summary: `the active decision ${d.key} resembles the recorded dead end ${dead.m.key} ("${dead.m.title}")`,
        evidence: {
          resemblance: round(score),
          threshold: RESEMBLANCE_THRESHOLD,
          dead_end: { key: dead.m.key, title: dead.m.title, description: dead.m.description, status: dead.m.status },
          versions: versionsOf([d, dead.m]),
        },
        fingerprint: `dead_end_collision:${at(d)}:${at(dead.m)}`,
        actions: ['dispute', 'deprecate', 'dismiss'],
      });
    }
  }
  return findings;
}

/** Every scan, in a stable order. */
export function scanAll(records: Memory[], options: ScanOptions): Finding[] {
  const vectors = new Map(records.map((m) => [m.key, termVector(m)]));
  return [
    ...findDuplicates(records, vectors),
    ...findConflicts(records, vectors),
    ...findStale(records, options),
    ...findDeadEndCollisions(records),
  ];
}

// `steward run`: scan the live records, let the policy apply what is low-risk (exact duplicates
// merged, history kept) and queue everything else in the Inbox with its evidence. A dry run reports
// the same decisions and writes nothing. The steward acts under its own actor, so every write it
// makes is audited as the steward's.

import { optionalInteger } from '../model/validate';
import type { Actor } from '../ports';
import { nowIso, type EngineContext } from '../context';
import { rowToMemory, type MemoryRow } from '../record/rows';
import { sha256 } from '../model/digest';
import { mergeRecords } from './apply';
import type { MemoryWrites } from './memoryWrites';
import type { DriftSignal } from './driftSignal';
import { itemByFingerprint, openItem } from './inbox';
import { assess } from './policy';
import { scanAll } from './scans';
import { LIVE_STATUSES_SQL } from '../model/types';
import type { Assessment, Finding } from './types';

export const STEWARD_ACTOR: Actor = { door: 'steward', name: 'policy' };

export interface StewardRunOptions {
  dryRun?: boolean;
  /** Days without a new version after which an active record counts as unverified (default 180). */
  unverifiedDays?: number;
}

export type FindingOutcome =
  | 'applied'
  | 'would_apply'
  | 'queued'
  | 'would_queue'
  | 'already_queued'
  | 'dismissed_before'
  | 'resolved_before'
  /** It named a record the policy just merged away. */
  | 'moot';

export interface StewardFinding extends Finding, Assessment {
  outcome: FindingOutcome;
  inbox_id: number | null;
}

export interface StewardRunResult {
  dry_run: boolean;
  scanned: number;
  /** Records that failed verification were left out of the scan (named by get/list). */
  refused: number;
  /** Whether drifted anchors were checked (drift findings available) or not. */
  drift: 'checked' | 'unavailable';
  findings: StewardFinding[];
  applied: number;
  queued: number;
  inbox_open: number;
}

export function runSteward(
  ctx: EngineContext,
  memory: MemoryWrites,
  options: StewardRunOptions = {},
  drift: Map<string, DriftSignal[]> | null,
): StewardRunResult {
  const dryRun = options.dryRun === true;
  const unverifiedDays = optionalInteger('unverifiedDays', options.unverifiedDays, 1, 36_500) ?? undefined;
  const work = () => {
    const now = nowIso(ctx);
    const rows = ctx.db.all<MemoryRow>(
      `SELECT * FROM memories WHERE is_current = 1 AND status IN ${LIVE_STATUSES_SQL} ORDER BY key`,
    );
    const { accepted, refused } = ctx.integrity.partition(rows);
    const records = accepted.map(rowToMemory);
    const statuses = new Map(records.map((m) => [m.key, m.status as string]));
    const findings = scanAll(records, {
      now,
      unverifiedDays,
      drift,
      verifiedAt: lastVerified(
        ctx,
        records.map((m) => m.key),
      ),
    });

    const results: StewardFinding[] = [];
    const mergedAway = new Set<string>();
    // Automatic merges first, so findings about a copy that was merged away are not queued.
    const ordered = findings
      .map((f) => ({ f, a: assess(f, statuses) }))
      .sort((x, y) => Number(y.a.auto) - Number(x.a.auto));
    for (const { f, a } of ordered) {
      const earlier = itemByFingerprint(ctx.db, f.fingerprint);
      let outcome: FindingOutcome;
      let inboxId: number | null = earlier?.id ?? null;
      if (earlier)
        outcome =
          earlier.state === 'open'
            ? 'already_queued'
            : earlier.state === 'dismissed'
              ? 'dismissed_before'
              : 'resolved_before';
      else if (f.keys.some((k) => mergedAway.has(k))) outcome = 'moot';
      else if (a.auto) {
        outcome = dryRun ? 'would_apply' : 'applied';
        for (const duplicate of f.keys.slice(1)) {
          if (!dryRun)
            mergeRecords(ctx, memory, STEWARD_ACTOR, f.keys[0], duplicate, `steward: exact duplicate of ${f.keys[0]}`);
          mergedAway.add(duplicate);
        }
      } else if (dryRun) outcome = 'would_queue';
      else {
        outcome = 'queued';
        inboxId = openItem(
          ctx,
          STEWARD_ACTOR,
          {
            fingerprint: f.fingerprint,
            kind: f.kind,
            keys: f.keys,
            summary: f.summary,
            evidence: { ...f.evidence, policy: a.reason },
            risk: a.risk,
            actions: f.actions,
          },
          now,
        ).id;
      }
      results.push({ ...f, ...a, outcome, inbox_id: inboxId });
    }
    const inboxOpen = ctx.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM inbox_items WHERE state = 'open'")!.n;
    return {
      dry_run: dryRun,
      scanned: records.length,
      refused: refused.length,
      drift: drift ? ('checked' as const) : ('unavailable' as const),
      findings: results,
      applied: results.filter((r) => r.outcome === 'applied').length,
      queued: results.filter((r) => r.outcome === 'queued').length,
      inbox_open: inboxOpen,
    };
  };
  // One transaction: a run lands whole or not at all.
  return dryRun ? work() : ctx.db.transaction(work);
}

/**
 * When each key was last re-verified. The audit chain is where that is kept for every record (a
 * re-verification of an already verified record writes no new version); it names keys by digest.
 */
function lastVerified(ctx: EngineContext, keys: string[]): Map<string, string> {
  const byDigest = new Map(
    ctx.db
      .all<{ key_digest: string; at: string }>(
        "SELECT key_digest, MAX(at) AS at FROM audit_events WHERE event = 'memory.reverify' GROUP BY key_digest",
      )
      .map((r) => [r.key_digest, r.at]),
  );
  const result = new Map<string, string>();
  if (!byDigest.size) return result;
  for (const key of keys) {
    const at = byDigest.get(sha256(key));
    if (at) result.set(key, at);
  }
  return result;
}

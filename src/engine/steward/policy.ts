// The steward's policy: what it may do on its own. Only exact duplicates among active records are
// merged without a person (the copies become superseded by the survivor, so nothing is lost and
// history shows the merge); everything else waits in the Inbox with its evidence.

import type { Assessment, Finding } from './types';

export function assess(finding: Finding, statuses: ReadonlyMap<string, string>): Assessment {
  switch (finding.kind) {
    case 'duplicate': {
      if (finding.evidence.exact !== true)
        return {
          risk: 'medium',
          auto: false,
          reason: 'near duplicates differ in wording; a person chooses what the merged record says',
        };
      const allActive = finding.keys.every((k) => statuses.get(k) === 'active');
      return allActive
        ? {
            risk: 'low',
            auto: true,
            reason: 'exact duplicates: the copies are superseded by the survivor, keeping their history',
          }
        : {
            risk: 'medium',
            auto: false,
            reason: 'exact duplicates, but not all active: a person already marked one of them',
          };
    }
    case 'conflict':
      return {
        risk: 'high',
        auto: false,
        reason: 'the records contradict each other; only a person knows which one holds',
      };
    case 'stale':
      return {
        risk: 'medium',
        auto: false,
        reason: 'a record may be out of date; a person re-verifies, deprecates or keeps it',
      };
    case 'dead_end_collision':
      return { risk: 'high', auto: false, reason: 'an active decision repeats an approach recorded as a dead end' };
  }
}

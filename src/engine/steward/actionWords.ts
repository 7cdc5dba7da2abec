// What resolving an Inbox item with an action will do, in words a person reads before choosing:
// "supersede the older convention/a with convention/b" says which record gives way, where the bare
// action name ("supersede") leaves it to the reader to know that a conflict lists its records oldest
// first (resolve.ts is the rule this describes).

import type { InboxAction, InboxItem } from './types';

export function describeInboxAction(item: Pick<InboxItem, 'kind' | 'keys'>, action: InboxAction): string {
  const [first, ...rest] = item.keys;
  const newest = item.keys[item.keys.length - 1];
  const older = item.keys.slice(0, -1);
  if (item.kind === 'conflict' && action === 'supersede' && older.length)
    return `supersede the older ${older.join(', ')} with ${newest}`;
  if (item.kind === 'conflict' && action === 'dispute') return `dispute ${item.keys.length > 2 ? 'all' : 'both'}`;
  if (item.kind === 'duplicate' && action === 'merge' && rest.length) return `merge ${rest.join(', ')} into ${first}`;
  return action;
}

// What each sidebar view lists, as plain data read from a store's API (the TreeItems are made in
// treeItems.ts). No `vscode` import, so the data can be checked against a real store in tests.

import type { DocSummary, InboxItem, MemorySummary, MemoryType } from '../../engine';
import type { DriftFinding, LoreApi } from '../contract';
import { foldFindings } from '../drift/fold';
import { readPages } from '../paging';
import { kindLabel } from './labels';

export type ViewId = 'lore.decisions' | 'lore.docs' | 'lore.deadEnds' | 'lore.drift' | 'lore.inbox';
export const VIEW_IDS: readonly ViewId[] = ['lore.decisions', 'lore.docs', 'lore.deadEnds', 'lore.drift', 'lore.inbox'];

export type LoreNode =
  | { kind: 'folder'; folder: string; view: ViewId }
  | { kind: 'memory'; folder: string; memory: MemorySummary }
  | { kind: 'group'; folder: string; group: string; label: string; count: number }
  | { kind: 'doc'; folder: string; doc: DocSummary }
  | {
      kind: 'finding';
      folder: string;
      finding: DriftFinding;
      also: DriftFinding[];
      /** A memory's finding: the memory's status as last read (its row offers only what that status allows). */
      status?: string;
    }
  | { kind: 'inbox'; folder: string; item: InboxItem }
  | { kind: 'message'; folder: string; text: string; detail?: string };

/** Statuses a memory view lists: retracted are tombstones, quarantined wait in the Inbox. */
const SHOWN = ['active', 'disputed', 'deprecated', 'superseded'];
const PAGE = 200;
/** A view is a browser, not an export: past this many records it says how to find the rest. */
export const VIEW_CAP = 1000;

type ListApi = Pick<LoreApi, 'list'>;

export async function memories(
  api: ListApi,
  types: MemoryType[],
  statuses: string[] = SHOWN,
): Promise<{ items: MemorySummary[]; total: number }> {
  const { items, total } = await readPages((offset) => api.list({ types, statuses, offset, limit: PAGE }), VIEW_CAP);
  // Active first, then by most recent change: what a reader should look at before what was replaced.
  const rank = (m: MemorySummary) => SHOWN.indexOf(m.status);
  items.sort((a, b) => rank(a) - rank(b) || b.updated_at.localeCompare(a.updated_at));
  return { items, total };
}

function capped(folder: string, shown: number, total: number, what: string): LoreNode[] {
  return total > shown
    ? [{ kind: 'message', folder, text: `${total - shown} more ${what}`, detail: 'use Lore: Recall… to find them' }]
    : [];
}

export async function memoryNodes(api: ListApi, folder: string, types: MemoryType[]): Promise<LoreNode[]> {
  const { items, total } = await memories(api, types);
  return [
    ...items.map((memory): LoreNode => ({ kind: 'memory', folder, memory })),
    ...capped(folder, items.length, total, 'records'),
  ];
}

const RUNBOOK_GROUP = 'memory:runbook';

/** Runbooks & Docs: runbook memories first, then indexed documents grouped by kind. */
export async function docGroups(api: Pick<LoreApi, 'list' | 'indexStatus'>, folder: string): Promise<LoreNode[]> {
  const [runbooks, status] = await Promise.all([
    api.list({ types: ['runbook'], statuses: SHOWN, limit: 1 }),
    api.indexStatus(),
  ]);
  const groups: LoreNode[] = [];
  if (runbooks.total)
    groups.push({ kind: 'group', folder, group: RUNBOOK_GROUP, label: 'Runbook memories', count: runbooks.total });
  const kinds = Object.entries(status.by_kind).sort(([a, n], [b, m]) => m - n || a.localeCompare(b));
  for (const [kind, count] of kinds) groups.push({ kind: 'group', folder, group: kind, label: kindLabel(kind), count });
  return groups;
}

export async function groupChildren(
  api: Pick<LoreApi, 'list' | 'listDocs'>,
  folder: string,
  group: string,
): Promise<LoreNode[]> {
  if (group === RUNBOOK_GROUP) return memoryNodes(api, folder, ['runbook']);
  const { items, total } = await readPages((offset) => api.listDocs({ kinds: [group], offset, limit: PAGE }), VIEW_CAP);
  return [
    ...items.map((doc): LoreNode => ({ kind: 'doc', folder, doc })),
    ...capped(folder, items.length, total, 'documents'),
  ];
}

/** Inbox: quarantined records (a person promotes or forgets them) and the steward's items. */
export async function inboxNodes(api: ListApi, folder: string, stewardItems: InboxItem[]): Promise<LoreNode[]> {
  const { items } = await memories(api, [], ['quarantined']);
  return [
    ...stewardItems.map((item): LoreNode => ({ kind: 'inbox', folder, item })),
    ...items.map((memory): LoreNode => ({ kind: 'memory', folder, memory })),
  ];
}

const SEVERITY: Record<string, number> = { gone: 0, broken: 1, changed: 2, relocated: 3, current: 4 };

/** The Drift view's group of breakage that was there before Lore (its own count; hidden by a setting). */
export const ALREADY_BROKEN_GROUP = 'drift:already-broken';

/** Worst first, then by the reference's text. */
function worstFirst(groups: ReturnType<typeof foldFindings>): ReturnType<typeof foldFindings> {
  return groups.sort(
    (a, b) =>
      (SEVERITY[a.finding.state] ?? 9) - (SEVERITY[b.finding.state] ?? 9) ||
      a.finding.reference.raw.localeCompare(b.finding.reference.raw),
  );
}

/**
 * Drift: every reference that is not current, one row per line and target (fold.ts), worst first.
 * Drift caused since Lore started comes first; what was already broken when Lore first looked is one
 * group after it ("Already broken (N)"), left out when `showAlreadyBroken` is off.
 */
export function driftNodes(
  folder: string,
  findings: DriftFinding[],
  showAlreadyBroken = true,
  statusOf: StatusOf = () => undefined,
): LoreNode[] {
  const groups = foldFindings(findings);
  const fresh = worstFirst(groups.filter((g) => !g.finding.already_broken));
  const old = groups.filter((g) => g.finding.already_broken);
  const nodes = fresh.map(({ finding, also }) => findingNode(folder, finding, also, statusOf));
  if (old.length && showAlreadyBroken)
    nodes.push({
      kind: 'group',
      folder,
      group: ALREADY_BROKEN_GROUP,
      label: 'Already broken when Lore first looked',
      count: old.length,
    });
  return nodes;
}

/** The findings under the Drift view's "already broken" group. */
export function alreadyBrokenNodes(
  folder: string,
  findings: DriftFinding[],
  statusOf: StatusOf = () => undefined,
): LoreNode[] {
  return worstFirst(foldFindings(findings).filter((g) => g.finding.already_broken)).map(({ finding, also }) =>
    findingNode(folder, finding, also, statusOf),
  );
}

/** The status of the memory a finding of a memory comes from, as last read (drift/tracker.ts). */
export type StatusOf = (key: string) => string | undefined;

function findingNode(folder: string, finding: DriftFinding, also: DriftFinding[], statusOf: StatusOf): LoreNode {
  const status = finding.source.kind === 'memory' && finding.source.key ? statusOf(finding.source.key) : undefined;
  return { kind: 'finding', folder, finding, also, ...(status ? { status } : {}) };
}

// The Inbox: findings and session proposals waiting for a person, kept in the store. Opening and
// closing an item are writes like any other, so each appends an audit event (digests only).

import { LoreError, invalid } from '../errors';
import type { EngineContext } from '../context';
import type { Actor, SqlDatabase } from '../ports';
import { actorLabel, appendAudit } from '../record/audit';
import { sha256 } from '../model/digest';
import type { InboxAction, InboxItem, InboxKind, Risk, SessionProposal } from './types';

interface InboxRow {
  id: number;
  fingerprint: string;
  kind: string;
  keys: string;
  summary: string;
  evidence: string;
  risk: string;
  actions: string;
  proposal: string | null;
  state: string;
  created_at: string;
  created_by: string;
  resolution: string | null;
  resolved_by: string | null;
  resolved_at: string | null;
  note: string | null;
}

export interface NewInboxItem {
  fingerprint: string;
  kind: InboxKind;
  keys: string[];
  summary: string;
  evidence: Record<string, unknown>;
  risk: Risk;
  actions: InboxAction[];
  proposal?: SessionProposal | null;
}

function toItem(row: InboxRow): InboxItem {
  const actions = JSON.parse(row.actions) as InboxAction[];
  return {
    id: row.id,
    kind: row.kind as InboxKind,
    state: row.state as InboxItem['state'],
    keys: JSON.parse(row.keys),
    summary: row.summary,
    evidence: JSON.parse(row.evidence),
    risk: row.risk as Risk,
    actions,
    suggested_action: actions[0],
    proposal: row.proposal ? JSON.parse(row.proposal) : null,
    created_at: row.created_at,
    created_by: row.created_by,
    resolution: row.resolution
      ? { action: row.resolution as InboxAction, by: row.resolved_by ?? '', at: row.resolved_at ?? '', note: row.note }
      : null,
  };
}

/** The newest item with this fingerprint, in any state: a finding is queued once, and a dismissal sticks. */
export function itemByFingerprint(db: SqlDatabase, fingerprint: string): InboxItem | undefined {
  const row = db.get<InboxRow>('SELECT * FROM inbox_items WHERE fingerprint = ? ORDER BY id DESC LIMIT 1', [
    fingerprint,
  ]);
  return row ? toItem(row) : undefined;
}

export function openItem(ctx: EngineContext, actor: Actor, item: NewInboxItem, now: string): InboxItem {
  const id = ctx.db.run(
    `INSERT INTO inbox_items
       (fingerprint, kind, keys, summary, evidence, risk, actions, proposal, state, created_at, created_by)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?)`,
    [
      item.fingerprint,
      item.kind,
      JSON.stringify(item.keys),
      item.summary,
      JSON.stringify(item.evidence),
      item.risk,
      JSON.stringify(item.actions),
      item.proposal ? JSON.stringify(item.proposal) : null,
      now,
      actorLabel(actor),
    ],
  ).lastInsertRowid;
  appendAudit(ctx.db, actor, now, {
    event: 'inbox.open',
    digests: { item: id, fingerprint: sha256(item.fingerprint) },
  });
  return getItem(ctx.db, id);
}

export function getItem(db: SqlDatabase, id: number): InboxItem {
  const row = db.get<InboxRow>('SELECT * FROM inbox_items WHERE id = ?', [id]);
  if (!row) throw new LoreError('NOT_FOUND', `no inbox item ${id}`, 'see the open items with `lore inbox`');
  return toItem(row);
}

export interface InboxFilter {
  /** open (default) or all. */
  state?: 'open' | 'all';
}

export interface InboxList {
  items: InboxItem[];
  open: number;
  total: number;
}

/** Open items, highest risk first, then oldest first; with `state: 'all'`, closed ones follow. */
export function listInbox(db: SqlDatabase, filter: InboxFilter = {}): InboxList {
  const state = filter.state ?? 'open';
  if (state !== 'open' && state !== 'all') throw invalid(`state must be open or all; got ${JSON.stringify(state)}`);
  const rows = db.all<InboxRow>(
    `SELECT * FROM inbox_items ${state === 'open' ? "WHERE state = 'open'" : ''}
     ORDER BY state = 'open' DESC, CASE risk WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END, id`,
  );
  const counts = db.get<{ open: number; total: number }>(
    "SELECT COALESCE(SUM(state = 'open'), 0) AS open, COUNT(*) AS total FROM inbox_items",
  )!;
  return { items: rows.map(toItem), open: counts.open, total: counts.total };
}

/**
 * Closes an item with the action taken. A dismissed session proposal drops the candidate it
 * carried: a person decided it should not be kept, so its text does not linger in the store.
 */
export function closeItem(
  ctx: EngineContext,
  actor: Actor,
  item: InboxItem,
  action: InboxAction,
  note: string | null,
  now: string,
): InboxItem {
  const state = action === 'dismiss' ? 'dismissed' : 'resolved';
  ctx.db.run(
    `UPDATE inbox_items SET state = ?, resolution = ?, resolved_by = ?, resolved_at = ?, note = ?,
       proposal = CASE WHEN ? = 'dismissed' THEN NULL ELSE proposal END WHERE id = ?`,
    [state, action, actorLabel(actor), now, note, state, item.id],
  );
  const { fingerprint } = ctx.db.get<{ fingerprint: string }>('SELECT fingerprint FROM inbox_items WHERE id = ?', [
    item.id,
  ])!;
  appendAudit(ctx.db, actor, now, {
    event: `inbox.${action}`,
    digests: { item: item.id, fingerprint: sha256(fingerprint) },
  });
  return getItem(ctx.db, item.id);
}

/** Type, title and description as a person compares them: case, spacing and a closing full stop aside. */
export function candidateLikeness(c: { type?: unknown; title?: unknown; description?: unknown }): string {
  const norm = (v: unknown) =>
    String(v ?? '')
      .normalize('NFKC')
      .toLowerCase()
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/[.\u3002]+$/, '');
  return `${norm(c.type)}\n${norm(c.title)}\n${norm(c.description)}`;
}

/**
 * The open session proposal whose candidate is like this one (candidateLikeness), if any: a
 * candidate handed in again by another session joins it instead of opening a second item. Reads
 * only the open session items proposing the same act on the same target for the candidate's type.
 */
export function openLikeItem(
  db: SqlDatabase,
  proposal: { action: string; target: string | null; candidate: { type?: unknown } },
  likeness: string,
): InboxItem | undefined {
  const rows = db.all<InboxRow>(
    `SELECT * FROM inbox_items WHERE state = 'open' AND kind = 'session' AND proposal IS NOT NULL
       AND json_extract(proposal, '$.candidate.type') = ? AND json_extract(proposal, '$.action') = ?
       AND COALESCE(json_extract(proposal, '$.target'), '') = ? ORDER BY id`,
    [String(proposal.candidate.type ?? ''), proposal.action, proposal.target ?? ''],
  );
  const row = rows.find((r) => candidateLikeness(JSON.parse(r.proposal!).candidate ?? {}) === likeness);
  return row ? toItem(row) : undefined;
}

export interface SessionRef {
  kind: string;
  id: string | null;
}

/** The sessions an item came from: its own, then those that joined it (evidence.sessions). */
export function itemSessions(item: InboxItem): SessionRef[] {
  const listed = item.evidence.sessions;
  if (Array.isArray(listed)) return listed as SessionRef[];
  const kind = typeof item.evidence.session_kind === 'string' ? item.evidence.session_kind : 'routine';
  const id = typeof item.evidence.session_id === 'string' ? item.evidence.session_id : null;
  return [{ kind, id }];
}

/** Adds a session to the item's list (once per session id); an audited write like opening it. */
export function joinItem(ctx: EngineContext, actor: Actor, item: InboxItem, session: SessionRef, now: string): boolean {
  const sessions = itemSessions(item);
  if (session.id !== null && sessions.some((s) => s.id === session.id)) return false;
  const evidence = { ...item.evidence, sessions: [...sessions, session] };
  ctx.db.run('UPDATE inbox_items SET evidence = ? WHERE id = ?', [JSON.stringify(evidence), item.id]);
  const { fingerprint } = ctx.db.get<{ fingerprint: string }>('SELECT fingerprint FROM inbox_items WHERE id = ?', [
    item.id,
  ])!;
  appendAudit(ctx.db, actor, now, {
    event: 'inbox.join',
    digests: { item: item.id, fingerprint: sha256(fingerprint) },
  });
  return true;
}

/** Forget removes every inbox item that names the forgotten key: their text quotes the record. */
export function forgetInboxItems(db: SqlDatabase, key: string): number {
  return db.run('DELETE FROM inbox_items WHERE EXISTS (SELECT 1 FROM json_each(inbox_items.keys) WHERE value = ?)', [
    key,
  ]).changes;
}

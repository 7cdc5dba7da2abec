// Forget: the hard delete. Every version's row, its full-text terms, its vectors and its history
// go; the audit chain keeps only digests. The receipt proves what was removed without keeping it.

import type { Actor } from '../ports';
import { nowIso, type EngineContext } from '../context';
import { requireCurrent } from './lifecycle';

export interface ForgetReceipt {
  key: string;
  versions_removed: number;
  digests: string[];
  forgotten_at: string;
  audit_seq: number;
}

export function forget(ctx: EngineContext, actor: Actor, key: string): ForgetReceipt {
  return ctx.memories.transaction(() => {
    requireCurrent(ctx, key);
    const now = nowIso(ctx);
    const versions = ctx.memories.removeKey(key);
    // The inbox's items, the dead-end cache and the record's references go too (engine.ts recordHooks).
    ctx.hooks.forgotten(ctx, key);
    const digests = versions.map((v) => v.content_digest);
    const event = ctx.memories.appendAudit(actor, now, {
      event: 'memory.forget',
      key,
      digests: { versions: digests.length, content: digests },
    });
    // Merging the index drops the deleted terms from its segments; with secure_delete on, the
    // freed pages are zeroed, so no trace of the text remains in the file.
    ctx.db.exec("INSERT INTO memory_fts (memory_fts) VALUES ('optimize')");
    return { key, versions_removed: versions.length, digests, forgotten_at: now, audit_seq: event.seq };
  });
}

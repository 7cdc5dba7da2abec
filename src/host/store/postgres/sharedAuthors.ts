// Authors' keys between the shared store and the engine's local list (record/integrity.ts), which
// every signature is checked against: this machine's key is shared through the store when it first
// signs, and another machine's key is copied from the store into the local list before a row it
// signed is handed to the engine.

import type { EngineContext } from '../../../engine/context';
import type { MemoryRow } from '../../../engine/record/rows';
import { registerAuthor } from '../../../engine/record/integrity';
import type { PortCall } from './portCall';

export interface SharedAuthors {
  /** Shares this machine's signing key through the store (once). */
  shareSigner(): void;
  /** Registers locally the authors of `rows` the engine has not seen yet; returns `rows`. */
  withAuthors<R extends Pick<MemoryRow, 'author' | 'state_signer'>>(rows: R[]): R[];
}

export function sharedAuthors(call: PortCall, ctx: () => EngineContext): SharedAuthors {
  const known = new Set<string>();
  return {
    shareSigner() {
      const { signer, clock } = ctx();
      if (known.has(signer.keyId)) return;
      call('registerAuthor', {
        key_id: signer.keyId,
        public_key: signer.publicKey,
        // Another machine reads this row: "this machine" is only this one's word for its key.
        label: null,
        added_at: clock.now().toISOString(),
        trusted: 0,
      });
      known.add(signer.keyId);
    },
    withAuthors(rows) {
      const missing = new Set<string>();
      for (const row of rows)
        for (const id of [row.author, row.state_signer]) if (id && !known.has(id)) missing.add(id);
      if (missing.size) {
        for (const author of call('authors', [...missing])) {
          const key = { keyId: author.key_id, publicKey: author.public_key };
          registerAuthor(ctx(), key, author.label, author.trusted === 1);
        }
        for (const id of missing) known.add(id);
      }
      return rows;
    },
  };
}

// One index run's extraction, done once per content: a file's secret scan and redaction depend on its
// text alone, its chunks on that and its kind, so a copy of content already read in this run (the
// same Dockerfile, LICENSE or template under many folders) takes the first copy's results. Only
// content that can have a copy is kept (a listed size that more than one file has), at most
// MAX_KEPT entries: the run never holds the tree's text.

import { chunkDocument, type Chunk } from './chunk';
import { redact, type Redacted } from './redact';
import type { DocKind } from '../model/kinds';

const MAX_KEPT = 512;

export class ExtractOnce {
  private readonly shared: Set<number>;
  private readonly redacted = new Map<string, Redacted>();
  private readonly chunked = new Map<string, Chunk[]>();

  /** `sizes`: every listed file's size (a size only one file has cannot be a copy). */
  constructor(sizes: readonly number[]) {
    const seen = new Set<number>();
    this.shared = new Set<number>();
    for (const size of sizes) (seen.has(size) ? this.shared : seen).add(size);
  }

  redact(hash: string, size: number, raw: string): Redacted {
    if (!this.shared.has(size)) return redact(raw);
    return remember(this.redacted, hash, () => redact(raw));
  }

  /** The document's chunks (chunk.ts), by its kind. */
  chunks(hash: string, size: number, kind: DocKind, text: string): Chunk[] {
    if (!this.shared.has(size)) return chunkDocument(kind, text);
    return remember(this.chunked, `${kind}\u0000${hash}`, () => chunkDocument(kind, text));
  }
}

function remember<V>(map: Map<string, V>, key: string, compute: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    if (map.size >= MAX_KEPT) map.delete(map.keys().next().value!);
    map.set(key, (value = compute()));
  }
  return value;
}

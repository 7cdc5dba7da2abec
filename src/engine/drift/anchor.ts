// What one anchor or link of a memory names, read by the drift engine's own parser (extract.ts):
// a workspace path with an optional `#fragment`, a URL, or a bare symbol — or nothing, for the key
// of another memory. Doors use this rather than a grammar of their own.

import { parseKey } from '../model/keys';
import { extractFromMemory } from './extract';

export interface AnchorTarget {
  /** A web address, opened as such. */
  url: string | null;
  /** The workspace-relative path, without its fragment. */
  path: string | null;
  /** A symbol, heading slug or `L10-L20` after `#` (or the bare symbol). */
  fragment: string | null;
}

/** A memory key (`decision/some-slug`) rather than a file path. */
export function isMemoryKey(text: string): boolean {
  try {
    parseKey(text);
    return !/\.[A-Za-z0-9]+$/.test(text);
  } catch {
    return false;
  }
}

export function anchorTarget(text: string): AnchorTarget | null {
  const [ref] = extractFromMemory([text], [], isMemoryKey);
  if (!ref) return null;
  if (!ref.path && !ref.symbol) return { url: ref.raw, path: null, fragment: null };
  return { url: null, path: ref.path ?? null, fragment: ref.fragment ?? (ref.path ? null : (ref.symbol ?? null)) };
}

/**
 * What "Open Anchor" offers for a memory: its anchors, then the links that name a workspace file.
 * A record's summary says whether there is any (`anchored`), so a door shows the action only then.
 */
export function openableAnchors(memory: { anchors: readonly string[]; links: readonly string[] }): string[] {
  return [...memory.anchors, ...memory.links.filter((link) => anchorTarget(link)?.path)];
}

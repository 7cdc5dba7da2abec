// Who may name which provenance source. "user" is a person's word and "import" a bundle's, so an
// agent — an actor that reaches Lore through MCP — names neither, whichever write it makes
// (remember, session close). The one rule, keyed on the actor; the MCP schemas only mirror it.
// Rebuilding an existing record (a merge, a re-verify) carries its source over and claims nothing.

import { invalid } from '../errors';
import { SOURCE_KINDS, type SourceKind } from '../model/types';
import type { Actor } from '../ports';

/** Sources an agent may name for what it saves. */
export const AGENT_SOURCES = ['agent', 'file', 'webpage', 'tool'] as const satisfies readonly SourceKind[];

export function isAgent(actor: Actor): boolean {
  return actor.door === 'mcp';
}

/** The sources `actor` may claim. */
export function claimableSources(actor: Actor): readonly SourceKind[] {
  return isAgent(actor) ? AGENT_SOURCES : SOURCE_KINDS;
}

/** `source`, if `actor` may claim it; else an error naming `field` and what the actor may use. */
export function requireClaimableSource(actor: Actor, field: string, source: unknown): SourceKind {
  const allowed = claimableSources(actor);
  if (typeof source === 'string' && (allowed as readonly string[]).includes(source)) return source as SourceKind;
  const why =
    isAgent(actor) && (source === 'user' || source === 'import')
      ? ' (an agent may not claim it: "user" is a person\'s word, "import" a bundle\'s)'
      : '';
  throw invalid(`${field} must be one of ${allowed.join(', ')}; got ${JSON.stringify(source)}${why}`);
}

/** For a `remember` input: its claimed source, checked for the actor (a missing source is validation's to report). */
export function checkClaimedSource(actor: Actor, input: unknown): void {
  if (input === null || typeof input !== 'object') return;
  const provenance = (input as { provenance?: unknown }).provenance;
  if (provenance === null || typeof provenance !== 'object' || Array.isArray(provenance)) return;
  const source = (provenance as { source?: unknown }).source;
  if (source !== undefined) requireClaimableSource(actor, 'provenance.source', source);
}

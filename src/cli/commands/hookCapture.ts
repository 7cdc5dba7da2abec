// `lore hook pre-compact` and `lore hook session-end`: before Claude Code compacts or closes a
// session, hand what it settled to session_close, review-first: every candidate waits in the Inbox
// for a person, nothing is written as memory. What is handed in is the transcript's summary and the
// candidates the agent fenced explicitly (see ../transcript.ts); a candidate Lore refuses (a
// secret, a bad field) is left out and the rest still go in. Silent and exit 0 on any failure.

import { existsSync } from 'node:fs';
import { AGENT_SOURCES, type Actor, type SessionCloseResult } from '../../engine';
import { storePaths } from '../../host/dataDir';
import { findLiveOwner } from '../../host/owner';
import { withStore } from '../command';
import { readTranscript } from '../transcript';

export interface HookInput {
  session_id?: unknown;
  transcript_path?: unknown;
  cwd?: unknown;
  hook_event_name?: unknown;
}

const HOOK_ACTOR: Actor = { door: 'mcp', name: 'claude-code hook', human: false };

/** A candidate may name a more cautious source (webpage, tool, file), never a person's. */
function asAgentCandidate(candidate: Record<string, unknown>): Record<string, unknown> {
  const given = candidate.provenance;
  const provenance = typeof given === 'object' && given !== null ? (given as Record<string, unknown>) : {};
  const source = (AGENT_SOURCES as readonly unknown[]).includes(provenance.source) ? provenance.source : 'agent';
  return { ...candidate, provenance: { ...provenance, source } };
}

/** Which part of the session an error names: memories[i] (the later of two that clash), or the summary. */
function culprit(message: string): number | 'summary' | undefined {
  const clash = /memories\[\d+\] and memories\[(\d+)\] both save/.exec(message);
  if (clash) return Number(clash[1]);
  const one = /^memories\[(\d+)\]/.exec(message);
  if (one) return Number(one[1]);
  return /summary/.test(message) ? 'summary' : undefined;
}

export async function captureSession(workspace: string, input: HookInput): Promise<SessionCloseResult | undefined> {
  const path = input.transcript_path;
  const transcript = typeof path === 'string' ? await readTranscript(path) : { candidates: [] };
  let candidates = transcript.candidates.map(asAgentCandidate);
  let summary = transcript.summary;
  if (!candidates.length && !summary) return undefined;
  const paths = storePaths(workspace);
  const known = existsSync(paths.database) || (await findLiveOwner(paths.owner)) !== undefined;
  // A summary alone never creates a store for a repository Lore has not seen; a fenced candidate is
  // the agent asking for one.
  if (!known && !candidates.length) return undefined;
  const session_id = typeof input.session_id === 'string' ? input.session_id.slice(0, 200) : undefined;
  return withStore(
    workspace,
    async (engine) => {
      // Each refusal removes one part, so this ends after at most candidates + 1 tries.
      for (;;) {
        if (!candidates.length && !summary) return undefined;
        const session = {
          kind: 'routine',
          agent: 'claude-code',
          ...(session_id ? { session_id } : {}),
          ...(summary ? { summary } : {}),
          memories: candidates,
        };
        try {
          return await engine.sessionClose(HOOK_ACTOR, session, { mode: 'accept', reviewFirst: true });
        } catch (error) {
          const part = culprit((error as Error).message ?? '');
          if (part === undefined || (part === 'summary' ? !summary : part >= candidates.length)) throw error;
          if (part === 'summary') summary = undefined;
          else candidates = candidates.filter((_, i) => i !== part);
        }
      }
    },
    { create: true },
  );
}

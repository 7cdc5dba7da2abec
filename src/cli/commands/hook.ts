// `lore hook session-start`: the JSON a Claude Code SessionStart hook reads, carrying a bounded
// (9,500 characters, which Claude Code shows whole), fenced block of what this repository's memory
// holds (dead ends first). `pre-compact` and `session-end` hand the session to session_close
// review-first (./hookCapture.ts). On any failure each prints nothing and exits 0, so a missing or
// broken store never blocks a session.

import { existsSync } from 'node:fs';
import { LIVE_STATUSES, describeVerification, type MemorySummary, type Refusal, type Verification } from '../../engine';
import { storePaths } from '../../host/dataDir';
import { findLiveOwner } from '../../host/owner';
import { fence, SESSION_START_CHARS } from '../../mcp/fence';
import type { Command } from '../command';
import { withStore } from '../command';
import { HOOK_INPUT_ENV } from './hookBackground';
import { captureSession, type HookInput } from './hookCapture';
import { preToolUse, type PreToolUseInput } from './hookPreToolUse';

const EVENTS = ['session-start', 'pre-tool-use', 'pre-compact', 'session-end'];
/** A listed record's line is rarely shorter (key, title, description): the bound on what is read. */
const MIN_LINE_BYTES = 80;

const SECTIONS: Array<{ heading: string; types: string[] }> = [
  { heading: 'Dead ends (approaches that failed — do not repeat without reading them)', types: ['dead_end'] },
  { heading: 'Decisions', types: ['decision'] },
  { heading: 'Conventions', types: ['convention', 'preference'] },
  { heading: 'Runbooks', types: ['runbook'] },
  { heading: 'Incidents and postmortems', types: ['incident', 'postmortem'] },
  { heading: 'Facts and references', types: ['fact', 'reference'] },
];

function line(m: MemorySummary, v: Verification | undefined): string {
  const flags = m.flags.length ? ` [${m.flags.join(', ')}]` : '';
  const holds = !v || v.state === 'holds' || v.state === 'unanchored';
  const verified = !v ? '' : holds ? ` (${v.state})` : `\n  ${describeVerification(v)}`;
  return `- ${m.key}${flags}: ${m.title} — ${m.description}${verified}`;
}

/** Records that still hold first; a contradicted one or one whose anchors are gone last, saying why. */
const unreliable = (v: Verification | undefined) => v?.state === 'contradicted' || v?.state === 'anchors_gone';

/** Reads the hook's JSON input if one is being piped in; an interactive or silent stdin yields nothing. */
async function readHookInput(): Promise<HookInput> {
  const handed = process.env[HOOK_INPUT_ENV];
  if (handed !== undefined) return parseHookInput(handed);
  if (process.stdin.isTTY) return {};
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve) => {
    process.stdin.on('data', (chunk: Buffer) => chunks.push(chunk));
    process.stdin.once('end', resolve);
    process.stdin.once('error', resolve);
    // A host that keeps stdin open without writing must not hang the session start.
    setTimeout(resolve, 1000).unref();
  });
  await done;
  process.stdin.pause();
  return parseHookInput(Buffer.concat(chunks).toString('utf8'));
}

function parseHookInput(text: string): HookInput {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as HookInput) : {};
  } catch {
    return {};
  }
}

export const hookCommand: Command = {
  name: 'hook',
  summary:
    'Claude Code hooks: session-start (a bounded recall block), pre-tool-use (memory anchored to the file an ' +
    'edit changes), pre-compact and session-end (to the Inbox)',
  usage:
    'lore hook session-start | pre-tool-use | pre-compact | session-end [--background] [--workspace DIR]   ' +
    '(reads the hook JSON on stdin; --background: session-end hands the capture to a detached process ' +
    'and returns at once)',
  // --background is handled in dist/cli.js before this bundle loads (./hookBackground.ts).
  options: { background: { type: 'boolean' } },
  positionals: { min: 1, max: 1, names: EVENTS.join(' | ') },
  async run(ctx, _values, [event]) {
    if (!EVENTS.includes(event)) return 0;
    try {
      const input = await readHookInput();
      const workspace = !ctx.workspaceGiven && typeof input.cwd === 'string' ? input.cwd : ctx.workspace;
      if (event === 'pre-tool-use') {
        const output = await preToolUse(input as PreToolUseInput, workspace);
        if (output) process.stdout.write(output + '\n');
        return 0;
      }
      if (event !== 'session-start') {
        const result = await captureSession(workspace, input);
        if (result?.queued) {
          const what = `${result.queued} candidate memor${result.queued === 1 ? 'y' : 'ies'}`;
          const systemMessage = `Lore: ${what} from this session wait in the Inbox for you (lore inbox).`;
          process.stdout.write(JSON.stringify({ systemMessage }) + '\n');
        }
        return 0;
      }
      // A repository Lore has never seen gets no block, and no store is created for it.
      const paths = storePaths(workspace);
      if (!existsSync(paths.database) && !(await findLiveOwner(paths.owner))) return 0;
      const items: string[] = [];
      const refused: Refusal[] = [];
      const total = await withStore(
        workspace,
        async (engine) => {
          const stats = await engine.stats();
          // Every record read is verified (a signature check each): read no more than the block can show.
          let room = SESSION_START_CHARS;
          for (const section of SECTIONS) {
            if (room <= 0) break;
            const limit = Math.min(200, Math.ceil(room / MIN_LINE_BYTES));
            const page = await engine.list({ types: section.types, statuses: [...LIVE_STATUSES], limit });
            refused.push(...page.refused);
            if (!page.items.length) continue;
            const verified = await engine.verifyMemories(page.items.map((m) => m.key));
            const ordered = [...page.items].sort(
              (a, b) => Number(unreliable(verified[a.key])) - Number(unreliable(verified[b.key])),
            );
            const lines = ordered.map((m) => line(m, verified[m.key]));
            items.push(`${section.heading}:`, ...lines);
            room -= lines.reduce((sum, l) => sum + Buffer.byteLength(l) + 1, 0);
          }
          return stats.memories;
        },
        { create: false, symbols: false },
      );
      if (refused.length)
        items.unshift(
          'Refused (failed verification; not memory):',
          ...refused.map((r) => `- ${r.key} v${r.version}: ${r.reason}`),
        );
      if (!items.length) return 0;
      const preamble =
        `Lore holds this repository's engineering memory. Call its recall ` +
        `tool before changing code and remember after deciding.\n`;
      // Bytes bound characters from above, so the whole context stays within SESSION_START_CHARS.
      const block = fence(`session start: ${total} memories of this repository`, items, {
        maxBytes: SESSION_START_CHARS - Buffer.byteLength(preamble),
        more: 'use the recall tool for the rest',
        bound: `${SESSION_START_CHARS} characters`,
      });
      const additionalContext = preamble + block.text;
      process.stdout.write(
        JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext } }) + '\n',
      );
    } catch {
      // Silent by contract: the session starts without Lore's block.
    }
    return 0;
  },
};

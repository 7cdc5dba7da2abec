// One recall session in a real host, the same shape for Claude Code, Codex CLI and Gemini CLI: a
// throwaway repository with hostile memories seeded, `lore init --agent <host>` run the way a
// newcomer runs it, the host's stand-in model, the user's own host set-up, one headless run, and
// then what reached the model: the recall result as the model reads it and Lore's server
// instructions. `assertReachedModel` holds every host to the same bounds (fenced, ≤ 8 KiB,
// instructions whole, ≤ 2,000 characters, safety rule first) and prints the figures the table in
// docs/agent-hosts-tier.md comes from. Each host's test adds what only that host does.

import { strict as assert } from 'node:assert';
import { SERVER_INSTRUCTIONS } from '../../src/mcp/instructions';
import {
  assertFencedAndBounded,
  CACHE,
  hostBinary,
  hostRepo,
  reportTiming,
  runHost,
  seedHostileMemories,
  type HostRepo,
  type HostRun,
} from './hostFixture';
import type { LoggedRequest, StandInModel } from './standInModel';

/** The largest recall result the tier lets reach a model (Lore's byte cap). */
export const RECALL_MAX_BYTES = 8 * 1024;
/** The longest server instructions Lore sends (Claude Code cuts at 2,048). */
export const INSTRUCTIONS_MAX_CHARS = 2000;

export interface RecallHost {
  /** As the tier's report names it. */
  label: string;
  bin: 'claude' | 'codex' | 'gemini';
  /** `lore init --agent` target. */
  agent: 'claude' | 'codex' | 'gemini';
  /** The recall tool as the model is offered it. */
  tool: string;
  /** Where the repository's Lore data lives, when not the default place under the throwaway home. */
  loreHome?: (home: string) => string;
  startModel(): Promise<StandInModel>;
  /** Writes the user's own host set-up under the throwaway home; the environment the host runs in. */
  prepare(repo: HostRepo, model: StandInModel): NodeJS.ProcessEnv;
  args(repo: HostRepo): string[];
  /** The tool names one request offers the model. */
  offered(request: LoggedRequest): string[];
  /** The recall results the host sent back to the model, as the model reads them. */
  results(requests: LoggedRequest[]): string[];
}

export interface RecallDrive {
  repo: HostRepo;
  model: StandInModel;
  run: HostRun;
  /** The one recall result the model got back. */
  sent: string;
}

/** Every string a request carries, wherever the host put it (system, messages, tools, descriptions). */
export function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) stringsIn(v, out);
  return out;
}

/** Skips the suite with the set-up command when the host is not in the cache. */
export function requireHost(ctx: Mocha.Context, host: RecallHost): string {
  const bin = hostBinary(host.bin);
  if (!bin) {
    console.log(`  ${host.label} is not installed in ${CACHE}: run bash scripts/hosts/setup.sh ${host.bin}`);
    ctx.skip();
  }
  return bin!;
}

/** Sets the repository up as a newcomer does, runs the host once, and returns what happened. */
export async function driveRecall(bin: string, host: RecallHost, prompt: string): Promise<RecallDrive> {
  const repo = hostRepo(host.agent, host.loreHome);
  seedHostileMemories(repo);
  repo.lore('init', '--agent', host.agent, '--yes');
  const model = await host.startModel();
  const env = host.prepare(repo, model);
  const run = await runHost(bin, [...host.args(repo), prompt], repo.workspace, env);
  reportTiming(host.label, 'one recall session (Lore starts, recall, answer)', run.ms);
  const seen = model.requests.map((q) => `${q.path} tools=${host.offered(q).join(',')}`).join('\n');
  assert.equal(run.status, 0, `${host.bin} exited ${run.status}\n${run.stdout}\n${run.stderr}\nrequests:\n${seen}`);
  assert.ok(
    model.requests.some((q) => host.offered(q).includes(host.tool)),
    `${host.label} offered the model Lore's ${host.tool} (the server started from the config)\n${seen}\n${run.stderr}`,
  );
  const results = host.results(model.requests);
  assert.equal(results.length, 1, 'the recall result went back to the model');
  return { repo, model, run, sent: results[0] };
}

/**
 * The bounds every host is held to, on what reached the model: the recall result fenced and within
 * 8 KiB (`text` is the part the model reads as text, when the host wraps it), and Lore's server
 * instructions whole, within 2,000 characters, the safety rule first. Prints the figures.
 */
export function assertReachedModel(host: RecallHost, drive: RecallDrive, text = drive.sent): void {
  assertFencedAndBounded(text, RECALL_MAX_BYTES);
  const carrying = drive.model.requests.flatMap((q) => stringsIn(q.body)).find((s) => s.includes(SERVER_INSTRUCTIONS));
  assert.ok(carrying, `Lore's server instructions reached the model whole in ${host.label}`);
  assert.ok(SERVER_INSTRUCTIONS.length <= INSTRUCTIONS_MAX_CHARS, `${SERVER_INSTRUCTIONS.length} characters`);
  assert.match(SERVER_INSTRUCTIONS, /^Safety: everything Lore returns/);
  const bytes = Buffer.byteLength(drive.sent);
  console.log(
    `      ${host.label} reached the model: recall ${bytes} bytes (≤ ${RECALL_MAX_BYTES}), fenced, ` +
      `instructions ${SERVER_INSTRUCTIONS.length} characters whole, safety rule first`,
  );
}

// The memory eval's harness: a fresh Lore data directory and workspace per scenario, sessions
// that are real MCP clients (the SDK's Client over stdio) talking to the BUILT server
// (`node dist/cli.js --workspace DIR mcp`), recall probes that are scored against labels, and
// checks that collect failures instead of stopping at the first one.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export const CLI = resolve(__dirname, '..', '..', 'dist', 'cli.js');

export type Theme =
  | 'precision'
  | 'staleness'
  | 'contradiction'
  | 'minimisation'
  | 'repairability'
  | 'poisoning'
  | 'dead ends'
  | 'drift'
  | 'concurrency'
  | 'vocabulary';

export interface Scenario {
  id: string;
  theme: Theme;
  /** One line: what must hold. */
  title: string;
  run(ctx: ScenarioContext): Promise<void>;
}

/** A failed expectation; the scenario keeps going so every failure is reported. */
export class Failure extends Error {}

export interface Box {
  root: string;
  home: string;
  workspace: string;
  env: Record<string, string>;
}

export function makeBox(): Box {
  const root = mkdtempSync(join(tmpdir(), 'lore-eval-'));
  const home = join(root, 'home');
  const workspace = join(root, 'repo');
  mkdirSync(workspace, { recursive: true });
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  env.LORE_HOME = home;
  delete env.LORE_LOG_LEVEL;
  return { root, home, workspace, env };
}

// ---------------------------------------------------------------------------------------------
// Tool result shapes (what the eval reads of them; the server validates the full schemas).

export interface Summary {
  record: 'memory' | 'doc';
  key: string;
  type?: string;
  title: string;
  description: string;
  status?: string;
  status_reason?: string | null;
  superseded_by?: string | null;
  flags: string[];
  valid_from?: string;
  valid_until?: string | null;
  review_after?: string | null;
  score: { total: number; dead_end_match?: number };
}

export interface RecallOut {
  text: string;
  results: Summary[];
  keys: string[];
  truncated: boolean;
  raw: Record<string, unknown>;
}

export interface SaveOut {
  saved: boolean;
  key: string;
  version?: number;
  status?: string;
  created?: boolean;
  unchanged?: boolean;
  superseded?: string[];
  warnings?: {
    dead_ends: Array<{ key: string; resemblance: number }>;
    contradictions?: Array<{ key: string; value_kind: string }>;
  };
  conflict?: {
    reason: string;
    expected_version: number;
    current_version: number | null;
    current: { version: number; body: string; description: string; title: string } | null;
  };
  text: string;
}

export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

// ---------------------------------------------------------------------------------------------
// Sessions: one MCP connection each, to its own `lore mcp` process.

export class Session {
  private closed = false;

  constructor(
    readonly name: string,
    private readonly client: Client,
    private readonly transport: StdioClientTransport,
    private readonly stderr: () => string,
  ) {}

  get pid(): number | null {
    return this.transport.pid;
  }

  /** The server's recent stderr, for failure reports. */
  log(): string {
    return this.stderr().split('\n').slice(-8).join('\n');
  }

  async call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
    return (await this.client.callTool({ name, arguments: args })) as CallToolResult;
  }

  /** Calls a tool that must succeed; returns its structured content and text. */
  async ok<T = Record<string, unknown>>(
    name: string,
    args: Record<string, unknown> = {},
  ): Promise<T & { text: string }> {
    const result = await this.call(name, args);
    const text = textOf(result);
    if (result.isError) throw new Failure(`${this.name}: ${name} failed: ${text.split('\n')[0]}`);
    return { ...(result.structuredContent as T), text };
  }

  async remember(args: Record<string, unknown>): Promise<SaveOut> {
    return this.ok<SaveOut>('remember', args);
  }

  /** A remember that must be saved; returns the key. */
  async save(args: Record<string, unknown>): Promise<string> {
    const out = await this.remember(args);
    if (!out.saved)
      throw new Failure(`${this.name}: remember "${String(args.title)}" was not saved: ${out.text.split('\n')[0]}`);
    return out.key;
  }

  async recall(query: string, options: { limit?: number; as_of?: string; types?: string[] } = {}): Promise<RecallOut> {
    const out = await this.ok<{ results: Summary[]; truncated: boolean }>('recall', { query, ...options });
    const results = out.results ?? [];
    return {
      text: out.text,
      results,
      keys: results.map((r) => r.key),
      truncated: out.truncated,
      raw: out as unknown as Record<string, unknown>,
    };
  }

  /** The store's database file, from the `context` tool. */
  async storeFile(): Promise<string> {
    const out = await this.ok<{ store: string | null }>('context');
    if (!out.store) throw new Failure(`${this.name}: context reports no store`);
    return out.store;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.close();
  }
}

export async function openSession(box: Box, name: string): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--workspace', box.workspace, 'mcp'],
    env: box.env,
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => {
    err += d.toString('utf8');
    if (err.length > 20_000) err = err.slice(-10_000);
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return new Session(name, client, transport, () => err);
}

/** Resolves once owner.json next to `storeFile` names a port: the owner is ready for relays. */
export async function ownerPublished(storeFile: string): Promise<{ pid: number; port: number }> {
  const dir = dirname(storeFile);
  const read = (): { pid: number; port: number } | undefined => {
    try {
      const info = JSON.parse(readFileSync(join(dir, 'owner.json'), 'utf8')) as { pid: number; port: number | null };
      return info.port ? { pid: info.pid, port: info.port } : undefined;
    } catch {
      return undefined;
    }
  };
  const now = read();
  if (now) return now;
  return new Promise((resolveOwner) => {
    const watcher = watch(dir, () => {
      const info = read();
      if (info) {
        watcher.close();
        resolveOwner(info);
      }
    });
    // It may have been published between the first read and the watch.
    const info = read();
    if (info) {
      watcher.close();
      resolveOwner(info);
    }
  });
}

export function processGone(pid: number | null): boolean {
  if (pid === null) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

// ---------------------------------------------------------------------------------------------
// Probes and their scoring.

export interface ProbeSpec {
  /** Keys that must be returned (and count as relevant). */
  relevant?: string[];
  /** Keys that must not be returned (and count as irrelevant). */
  irrelevant?: string[];
  /** Keys that may be returned but must rank below every relevant key (they count as irrelevant). */
  below?: string[];
  /** The key that must be ranked first. */
  first?: string;
  limit?: number;
  as_of?: string;
  types?: string[];
  /** Short name for reports; defaults to the query. */
  label?: string;
}

export interface ProbeRecord {
  scenario: string;
  label: string;
  query: string;
  as_of: string | null;
  k: number;
  returned: string[];
  relevant: string[];
  irrelevant: string[];
  relevantReturned: number;
  labelledReturned: number;
  firstRelevantRank: number | null;
  problems: string[];
}

export function scoreProbe(scenario: string, query: string, spec: ProbeSpec, returned: string[]): ProbeRecord {
  const relevant = [...new Set([...(spec.relevant ?? []), ...(spec.first ? [spec.first] : [])])];
  const irrelevant = [...new Set([...(spec.irrelevant ?? []), ...(spec.below ?? [])])];
  const k = spec.limit ?? 10;
  const top = returned.slice(0, k);
  const relevantReturned = top.filter((key) => relevant.includes(key)).length;
  const labelledReturned = top.filter((key) => relevant.includes(key) || irrelevant.includes(key)).length;
  const firstIndex = top.findIndex((key) => relevant.includes(key));
  const problems: string[] = [];
  const label = spec.label ?? query;
  const missing = relevant.filter((key) => !top.includes(key));
  if (missing.length) problems.push(`"${label}": missing ${missing.join(', ')}`);
  const leaked = (spec.irrelevant ?? []).filter((key) => top.includes(key));
  if (leaked.length)
    problems.push(`"${label}": returned ${leaked.map((key) => `${key} (#${top.indexOf(key) + 1})`).join(', ')}`);
  if (spec.first && top[0] !== spec.first)
    problems.push(
      `"${label}": #1 is ${top[0] ?? 'nothing'}, not ` +
        `${spec.first}${top.includes(spec.first) ? ` (#${top.indexOf(spec.first) + 1})` : ''}`,
    );
  const lastRelevant = Math.max(-1, ...relevant.map((key) => top.indexOf(key)));
  for (const key of spec.below ?? []) {
    const at = top.indexOf(key);
    if (at >= 0 && at < lastRelevant)
      problems.push(`"${label}": ${key} (#${at + 1}) outranks ${top[lastRelevant]} (#${lastRelevant + 1})`);
  }
  return {
    scenario,
    label,
    query,
    as_of: spec.as_of ?? null,
    k,
    returned: top,
    relevant,
    irrelevant,
    relevantReturned,
    labelledReturned,
    firstRelevantRank: firstIndex < 0 ? null : firstIndex + 1,
    problems,
  };
}

export interface Metrics {
  probes: number;
  precision: number | null;
  recall: number | null;
  mrr: number | null;
}

/** Micro-averaged precision@k (over returned keys that are labelled) and recall; MRR over probes with relevant keys. */
export function metricsOf(probes: ProbeRecord[]): Metrics {
  const labelled = probes.reduce((n, p) => n + p.labelledReturned, 0);
  const hits = probes.reduce((n, p) => n + p.relevantReturned, 0);
  const wanted = probes.reduce((n, p) => n + p.relevant.length, 0);
  const ranked = probes.filter((p) => p.relevant.length > 0);
  return {
    probes: probes.length,
    precision: labelled ? hits / labelled : null,
    recall: wanted ? hits / wanted : null,
    mrr: ranked.length
      ? ranked.reduce((sum, p) => sum + (p.firstRelevantRank ? 1 / p.firstRelevantRank : 0), 0) / ranked.length
      : null,
  };
}

// ---------------------------------------------------------------------------------------------
// What a scenario sees.

export class ScenarioContext {
  readonly box: Box = makeBox();
  readonly probes: ProbeRecord[] = [];
  readonly failures: string[] = [];
  sessions = 0;
  private readonly open = new Set<Session>();

  constructor(readonly scenario: string) {}

  get workspace(): string {
    return this.box.workspace;
  }

  /** Opens a session: a new `lore mcp` process and MCP connection. Close it before the next. */
  async session(name = `session-${this.sessions + 1}`): Promise<Session> {
    const session = await openSession(this.box, name);
    this.sessions++;
    this.open.add(session);
    const close = session.close.bind(session);
    session.close = async () => {
      this.open.delete(session);
      await close();
    };
    return session;
  }

  /** Runs `work` in a session of its own and closes it afterwards. */
  async withSession<T>(work: (session: Session) => Promise<T>, name?: string): Promise<T> {
    const session = await this.session(name);
    try {
      return await work(session);
    } finally {
      await session.close();
    }
  }

  /** Records a failed expectation unless `condition` holds. */
  expect(condition: unknown, reason: string): void {
    if (!condition) this.failures.push(reason);
  }

  /** A recall whose result is scored against `spec` and checked against it. */
  async probe(session: Session, query: string, spec: ProbeSpec = {}): Promise<RecallOut> {
    const out = await session.recall(query, { limit: spec.limit, as_of: spec.as_of, types: spec.types });
    const record = scoreProbe(this.scenario, query, spec, out.keys);
    this.probes.push(record);
    this.failures.push(...record.problems);
    return out;
  }

  async dispose(keep: boolean): Promise<void> {
    await Promise.all([...this.open].map((s) => s.close().catch(() => undefined)));
    if (!keep) rmSync(this.box.root, { recursive: true, force: true });
  }
}

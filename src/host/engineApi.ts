// The engine as an asynchronous API, so a door works the same whether it owns the store (local
// calls) or reaches the owner over loopback HTTP (`/rpc`). One table of operations serves both.

import {
  LoreError,
  Engine,
  isLoreError,
  type Actor,
  type CanonicalizeOptions,
  type CanonicalizeResult,
  type ErrorCode,
  type IndexDriftChecked,
  type IndexOptions,
  type IndexProgress,
  type IndexStatus,
  type IndexSummary,
} from '../engine';
import { shown } from '../engine/model/shown';
import type { DiscoveryConfig, DiscoveryRules } from '../engine/indexing/discovery';
import type { FileSource } from '../engine/indexing/indexer';
import { WorkspaceFileSource } from './fileSource';
import { REQUEST_DEADLINE_MS, fetchWithDeadline, type Deadline } from './ownerRequest';
import { isPersonAct, type PersonConfirmer } from './personConfirm';
import { listKinds, readKindRules, removeKind, setKind, type KindChange, type KindRuleList } from './kindFile';
import { isRepoRecordPath } from '../engine/team/repoRecords';
import { WorkspaceRepoFiles } from './repoFiles';
import { workspaceDiscoveryRules } from './workspaceConfig';

export const RPC_OPS = [
  'remember',
  'recall',
  'get',
  'list',
  'history',
  'setStatus',
  'supersede',
  'promote',
  'forget',
  'verifyAudit',
  'auditCheckpoint',
  'stats',
  'indexStatus',
  'indexWorkspace',
  'listDocs',
  'stewardRun',
  'inbox',
  'resolveInbox',
  'sessionClose',
  'driftScan',
  'driftCheck',
  'driftFindings',
  'anchoredTo',
  'reverify',
  'reverifyReference',
  'dismissReference',
  'exportBundle',
  'importBundle',
  'trustedKeys',
  'trustAuthor',
  'distrustAuthor',
  'canonicalize',
  'verifyRecords',
  'sealProblems',
  'repairSeals',
  'setKind',
  'removeKind',
  'listKinds',
  'verifyMemories',
  'verifiedAnchoredTo',
] as const;
export type RpcOp = (typeof RPC_OPS)[number];
/** The ops the host answers around the engine (they read or write the workspace's files). */
type HostOp = 'indexWorkspace' | 'canonicalize' | 'setKind' | 'removeKind' | 'listKinds';
type EngineOp = Exclude<RpcOp, HostOp>;
export type IndexRequest = Pick<IndexOptions, 'full' | 'signal'> & {
  discovery?: DiscoveryConfig;
  /** The owner's own runs only (never from a client's arguments): what drift's checks of the batches found. */
  driftChecked?: IndexDriftChecked;
};
/** What the owner's side of a long RPC (indexing) is handed: where progress goes, and its cancel. */
export interface RpcRun {
  onProgress?: (p: IndexProgress) => void;
  signal?: AbortSignal;
  /** The owner's watched listing (workspaceWatch.ts), used instead of a walk. */
  files?: (rules: DiscoveryRules) => FileSource;
}

type Method<K extends EngineOp> = Engine[K] extends (...args: infer A) => infer R
  ? (...args: A) => Promise<Awaited<R>>
  : never;
export type EngineApi = { [K in EngineOp]: Method<K> } & {
  /**
   * Indexes the workspace at `root` (an owner across /rpc indexes its own), with `discovery`'s
   * globs on top of its .lore/config.json; progress reaches `onProgress`, local or remote, and
   * aborting `signal` stops the run between batches (remotely: by hanging up).
   */
  indexWorkspace(
    root: string,
    options: IndexRequest,
    onProgress?: (p: IndexProgress) => void,
  ): Promise<{ summary: IndexSummary; status: IndexStatus }>;
  /** Writes a record into the workspace the store belongs to (an ADR, or a signed `.lore/` record). */
  canonicalize(actor: Actor, key: string, options?: CanonicalizeOptions): Promise<CanonicalizeResult>;
  /**
   * A person's kind for the files `target` (a path or glob) names, written to `.lore/kinds` at
   * `root` (an owner across /rpc writes its own workspace's), then indexed.
   */
  setKind(root: string, target: string, kind: string): Promise<KindChange>;
  /** Removes the `.lore/kinds` rule written for `target`, then indexes. */
  removeKind(root: string, target: string): Promise<KindChange>;
  /** The `.lore/kinds` rules, with how many indexed documents each matches and decides. */
  listKinds(root: string): Promise<KindRuleList>;
};

/** Canonicalize against the workspace's files: the engine renders, this host writes. */
export function runCanonicalize(
  engine: Engine,
  root: string | undefined,
  actor: Actor,
  key: string,
  options: CanonicalizeOptions = {},
): CanonicalizeResult {
  if (!root)
    throw new LoreError(
      'STORE_UNAVAILABLE',
      'this connection to the store has no workspace folder to write into',
      'run it from the workspace (lore canonicalize) or the editor',
    );
  return engine.canonicalize(actor, key, options, new WorkspaceRepoFiles(root));
}

/** Drains the indexer over the workspace's files, reporting progress. */
/** `discovery`: globs from the editor's settings, on top of the workspace's .lore/config.json. */
export async function runIndex(
  engine: Engine,
  root: string,
  options: IndexRequest,
  onProgress?: (p: IndexProgress) => void,
  files?: (rules: DiscoveryRules) => FileSource,
): Promise<{ summary: IndexSummary; status: IndexStatus }> {
  // One run at a time per store: the owner's own re-index on file events and a client's request queue.
  const before = indexRuns.get(engine) ?? Promise.resolve();
  const run = before.catch(() => undefined).then(() => indexOnce(engine, root, options, onProgress, files));
  indexRuns.set(engine, run);
  return run;
}

const indexRuns = new WeakMap<Engine, Promise<unknown>>();

/**
 * The globs of the last index a client asked the owner for (the editor's `lore.index.*` settings,
 * or none from the CLI): the owner's own runs on file events (ownerWatch.ts) index by the same
 * rules, or a file a setting excludes would come back with the next change and go with the next request.
 */
const requestedDiscovery = new WeakMap<Engine, DiscoveryConfig | undefined>();

export function lastRequestedDiscovery(engine: Engine): DiscoveryConfig | undefined {
  return requestedDiscovery.get(engine);
}

async function indexOnce(
  engine: Engine,
  root: string,
  options: IndexRequest,
  onProgress?: (p: IndexProgress) => void,
  files?: (rules: DiscoveryRules) => FileSource,
): Promise<{ summary: IndexSummary; status: IndexStatus }> {
  const rules = workspaceDiscoveryRules(root, options.discovery);
  const run = engine.index(files ? files(rules) : new WorkspaceFileSource(root, rules), {
    full: options.full,
    signal: options.signal,
    driftChecked: options.driftChecked,
    // Read fresh each run, like .lore/config.json: an edit or a pull reaches the next index.
    kindRules: readKindRules(root),
  });
  for (;;) {
    const step = await run.next();
    if (step.done) return { summary: step.value, status: engine.indexStatus() };
    onProgress?.(step.value);
    // Between batches the owner's other requests (agents, the CLI, the editor) get their turn.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/**
 * A `.lore/kinds` change's view of the host: the files the next index takes (the owner's watched
 * listing when it has one), and that index, by the rules the last client asked for.
 */
function kindWrites(engine: Engine, root: string, files?: (rules: DiscoveryRules) => FileSource) {
  return {
    indexable: async () => {
      const rules = workspaceDiscoveryRules(root, lastRequestedDiscovery(engine));
      const listed = await (files ? files(rules) : new WorkspaceFileSource(root, rules)).list();
      return listed.map((f) => f.path).filter((path) => !isRepoRecordPath(path));
    },
    reindex: () => runIndex(engine, root, { discovery: lastRequestedDiscovery(engine) }, undefined, files),
  };
}

/** The host's `.lore/kinds` ops, against the workspace at `root`. */
async function kindOp(
  engine: Engine,
  root: string,
  op: KindOp,
  args: unknown[],
  files?: (rules: DiscoveryRules) => FileSource,
): Promise<unknown> {
  if (!root)
    throw new LoreError(
      'STORE_UNAVAILABLE',
      'this connection to the store has no workspace folder whose .lore/kinds it could read or write',
      'run it from the workspace or the editor',
    );
  if (op === 'listKinds') return listKinds(engine, root);
  if (op === 'setKind') return setKind(kindWrites(engine, root, files), root, args[0], args[1]);
  return removeKind(kindWrites(engine, root, files), root, args[0]);
}

type KindOp = 'setKind' | 'removeKind' | 'listKinds';
const isKindOp = (op: RpcOp): op is KindOp => op === 'setKind' || op === 'removeKind' || op === 'listKinds';

/** `workspaceRoot`: the folder canonicalize writes into (the store's workspace). */
export function localApi(engine: Engine, workspaceRoot?: string): EngineApi {
  const api = {} as Record<RpcOp, (...args: unknown[]) => Promise<unknown>>;
  for (const op of RPC_OPS) {
    if (isKindOp(op)) {
      api[op] = async (root: unknown, ...args: unknown[]) => kindOp(engine, String(root), op, args);
      continue;
    }
    api[op] =
      op === 'indexWorkspace'
        ? async (...args: unknown[]) =>
            runIndex(engine, ...(args as [string, IndexRequest, ((p: IndexProgress) => void)?]))
        : op === 'canonicalize'
          ? async (...args: unknown[]) =>
              runCanonicalize(engine, workspaceRoot, ...(args as [Actor, string, CanonicalizeOptions?]))
          : async (...args: unknown[]) => (engine[op] as (...a: unknown[]) => unknown).apply(engine, args);
  }
  return api as unknown as EngineApi;
}

/** The globs a client sends with indexWorkspace: lists of strings or nothing. */
function discoveryArg(value: unknown): DiscoveryConfig | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value))
    throw new LoreError('INVALID_INPUT', 'indexWorkspace: discovery must be an object { include?, exclude? }');
  const { include, exclude } = value as { include?: unknown; exclude?: unknown };
  const globs = (list: unknown, name: string): string[] | undefined => {
    if (list === undefined) return undefined;
    if (!Array.isArray(list) || !list.every((g) => typeof g === 'string'))
      throw new LoreError('INVALID_INPUT', `indexWorkspace: discovery.${name} must be a list of glob strings`);
    return list;
  };
  return { include: globs(include, 'include'), exclude: globs(exclude, 'exclude') };
}

/** The ops whose first argument is who acts: a client must say it, as the engine's Actor. */
const ACTOR_OPS: ReadonlySet<RpcOp> = new Set([
  'remember',
  'setStatus',
  'supersede',
  'promote',
  'forget',
  'resolveInbox',
  'sessionClose',
  'reverify',
  'reverifyReference',
  'dismissReference',
  'importBundle',
  'trustAuthor',
  'distrustAuthor',
  'canonicalize',
  'repairSeals',
]);

function checkActor(op: RpcOp, value: unknown): void {
  const actor = value as Partial<Actor> | null;
  if (
    actor === null ||
    typeof actor !== 'object' ||
    typeof actor.door !== 'string' ||
    typeof actor.name !== 'string' ||
    (actor.human !== undefined && typeof actor.human !== 'boolean')
  )
    throw new LoreError('INVALID_INPUT', `${op}: args[0] must be the actor { door, name, human? }`);
}

/** A request the owner has checked: a known op, its arguments, and indexing's options. */
export interface RpcCall {
  op: RpcOp;
  args: unknown[];
  index?: Omit<IndexRequest, 'signal'>;
}

/**
 * Checks an RPC body ({ op, args }) before anything runs, so a bad one is answered with a plain
 * error (indexWorkspace's included, before its stream starts). JSON writes an omitted argument
 * as null; it is read back as undefined, so the engine's defaults apply as in a local call.
 */
export function checkRpc(body: unknown): RpcCall {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new LoreError('INVALID_INPUT', 'the request body must be a JSON object { "op": "…", "args": [ … ] }');
  const { op, args } = body as { op?: unknown; args?: unknown };
  if (op === undefined) throw new LoreError('INVALID_INPUT', 'the request has no "op"', `one of ${RPC_OPS.join(', ')}`);
  if (typeof op !== 'string' || !(RPC_OPS as readonly string[]).includes(op))
    throw new LoreError('INVALID_INPUT', `unknown operation ${shown(op)}`, `one of ${RPC_OPS.join(', ')}`);
  const known = op as RpcOp;
  if (!Array.isArray(args)) throw new LoreError('INVALID_INPUT', `${op}: args must be a list`);
  const given = args.map((a: unknown) => (a === null ? undefined : a));
  if (ACTOR_OPS.has(known)) checkActor(known, given[0]);
  if (known !== 'indexWorkspace') return { op: known, args: given };
  // The owner indexes its own workspace: a client names no folder to read.
  const options = (given[1] ?? {}) as { full?: unknown; discovery?: unknown };
  if (typeof options !== 'object' || Array.isArray(options))
    throw new LoreError('INVALID_INPUT', 'indexWorkspace: args[1] must be an object { full?, discovery? }');
  if (options.full !== undefined && typeof options.full !== 'boolean')
    throw new LoreError('INVALID_INPUT', 'indexWorkspace: full must be true or false');
  return { op: known, args: given, index: { full: options.full === true, discovery: discoveryArg(options.discovery) } };
}

/** Runs one checked RPC request against the engine; throws LoreError for bad requests. */
export async function dispatchRpc(
  engine: Engine,
  workspaceRoot: string,
  call: RpcCall,
  run: RpcRun = {},
): Promise<unknown> {
  const { op, args } = call;
  if (call.index) {
    requestedDiscovery.set(engine, call.index.discovery);
    return runIndex(engine, workspaceRoot, { ...call.index, signal: run.signal }, run.onProgress, run.files);
  }
  // The owner changes its own workspace's .lore/kinds: a client names no folder (args[0] is ignored).
  if (isKindOp(op)) return kindOp(engine, workspaceRoot, op, args.slice(1), run.files);
  try {
    if (op === 'canonicalize')
      return runCanonicalize(engine, workspaceRoot, ...(args as [Actor, string, CanonicalizeOptions?]));
    return await (engine[op as EngineOp] as (...a: unknown[]) => unknown).apply(engine, args);
  } catch (error) {
    // A client's argument of the wrong shape reached code that trusted its type.
    if (error instanceof TypeError)
      throw new LoreError('INVALID_INPUT', `${op}: an argument has the wrong type (${error.message})`);
    throw error;
  }
}

type RpcError = { code: ErrorCode; message: string; hint?: string; details?: Record<string, unknown> };
type RpcPayload = { result?: unknown; done?: boolean; error?: RpcError };

/** The owner answers indexWorkspace as lines: {progress} while it runs, then {result} or {error}. */
export async function readIndexLines(response: Response, onProgress?: (p: IndexProgress) => void): Promise<unknown> {
  if (!response.body)
    throw new LoreError('STORE_UNAVAILABLE', `the store owner answered HTTP ${response.status} with no body`);
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    pending += decoder.decode(chunk, { stream: true });
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      const line = JSON.parse(pending.slice(0, end)) as {
        progress?: IndexProgress;
        result?: unknown;
        error?: RpcError;
      };
      pending = pending.slice(end + 1);
      if (line.error) throw new LoreError(line.error.code, line.error.message, line.error.hint, line.error.details);
      if ('result' in line) return line.result;
      if (line.progress) onProgress?.(line.progress);
    }
  }
  throw new LoreError(
    'STORE_UNAVAILABLE',
    'the store owner stopped answering before indexing ended',
    'if it crashed, index again: its lock is taken over',
  );
}

export function remoteApi(
  url: string,
  token: string,
  deadlineMs = REQUEST_DEADLINE_MS,
  confirmer?: PersonConfirmer,
): EngineApi {
  const api = {} as Record<RpcOp, (...args: unknown[]) => Promise<unknown>>;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  // A person's act: the owner shows a one-time code on the confirmer's channel, the person gives it
  // back (no deadline while they read and type), and it travels with the act. Without a confirmer
  // the act goes without one and the owner refuses it.
  const askPerson = async (op: string, args: unknown[]) => {
    if (!confirmer) return undefined;
    const init = { method: 'POST', headers, body: JSON.stringify({ op, args, channel: confirmer.channel }) };
    const read = async (response: Response) => (await response.json().catch(() => ({}))) as RpcPayload;
    const begun = await fetchWithDeadline(url.replace(/\/rpc$/, '/confirm'), init, deadlineMs, `"${op}"`, read);
    if (begun.error) throw new LoreError(begun.error.code, begun.error.message, begun.error.hint, begun.error.details);
    const { id } = begun.result as { id: string };
    return { id, code: await confirmer.code(id) };
  };
  for (const op of RPC_OPS) {
    api[op] = async (...args: unknown[]) => {
      // Functions and signals do not travel: progress comes back as lines, and a cancel hangs up.
      const index =
        op === 'indexWorkspace'
          ? {
              request: (args[1] ?? {}) as IndexRequest,
              onProgress: args[2] as ((p: IndexProgress) => void) | undefined,
            }
          : undefined;
      if (index) args = [args[0], { full: index.request.full === true, discovery: index.request.discovery }];
      const confirm = isPersonAct(op, args) ? await askPerson(op, args) : undefined;
      const init: RequestInit = {
        method: 'POST',
        headers,
        body: JSON.stringify(confirm ? { op, args, confirm } : { op, args }),
        signal: index?.request.signal,
      };
      // Every answer has a deadline; an index run's is for silence between its progress lines.
      const read = async (response: Response, deadline: Deadline) => {
        if (index && response.ok)
          return {
            index: await readIndexLines(response, (progress) => {
              deadline.restart();
              index.onProgress?.(progress);
            }),
          };
        return { response, payload: (await response.json().catch(() => ({}))) as RpcPayload };
      };
      let answer: Awaited<ReturnType<typeof read>>;
      try {
        answer = await fetchWithDeadline(url, init, deadlineMs, `"${op}"`, read);
      } catch (error) {
        if (isLoreError(error) || index?.request.signal?.aborted) throw error;
        throw new LoreError(
          'STORE_UNAVAILABLE',
          `cannot reach the Lore process that owns this store (${(error as Error).message})`,
          'if it crashed, run the command again: its lock is taken over',
        );
      }
      if ('index' in answer) return answer.index;
      const { response, payload } = answer;
      if (payload.error)
        throw new LoreError(payload.error.code, payload.error.message, payload.error.hint, payload.error.details);
      if (!response.ok) throw new LoreError('STORE_UNAVAILABLE', `the store owner answered HTTP ${response.status}`);
      // An owner that dropped the answer half-way must not read as a void success.
      if (!('result' in payload) && payload.done !== true)
        throw new LoreError('STORE_UNAVAILABLE', 'the store owner answered without a result', 'run the command again');
      return payload.result;
    };
  }
  return api as unknown as EngineApi;
}

// Test helpers for the built `lore` command (dist/cli.js), run the way a person types it: a
// child process with its own LORE_HOME and workspace, its exit code, stdout, stderr and (when
// stdout is JSON) the parsed output. dist/ is built before the tests run; nothing here builds.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { storePaths, type StorePaths } from '../../src/host/dataDir';
import { tempDir } from './store';

export const CLI = resolve(__dirname, '..', '..', 'dist', 'cli.js');
export const SCRIPT = '/usr/bin/script';
export const ALL_STATUSES = ['active', 'deprecated', 'disputed', 'superseded', 'retracted', 'quarantined'] as const;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON, or undefined when it is not JSON. */
  json: any;
}

export interface RunOptions {
  /** LORE_HOME for the child. */
  home: string;
  /** Passed as `--workspace DIR` before the command; omit to rely on the cwd default. */
  workspace?: string;
  cwd?: string;
  input?: string;
  env?: NodeJS.ProcessEnv;
  /** How long the command may take before it is killed (default 30 s). */
  timeoutMs?: number;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function childEnv(home: string, extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LORE_HOME: home, ...extra };
  delete env.LORE_DEBUG;
  return env;
}

/** Runs `node dist/cli.js [--workspace DIR] ARGS...` and waits for it. */
export function runCli(args: string[], options: RunOptions): CliResult {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first with \`node esbuild.mjs\``);
  const argv = [CLI, ...(options.workspace !== undefined ? ['--workspace', options.workspace] : []), ...args];
  const child = spawnSync(process.execPath, argv, {
    cwd: options.cwd ?? tmpdir(),
    env: childEnv(options.home, options.env),
    input: options.input ?? '',
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (child.error) throw child.error;
  const code = child.status ?? (child.signal ? 128 : -1);
  return { code, stdout: child.stdout, stderr: child.stderr, json: parseJson(child.stdout) };
}

/** runCli without waiting: for independent commands (each on its own store) run side by side. */
export function runCliAsync(args: string[], options: RunOptions): Promise<CliResult> {
  const argv = [CLI, ...(options.workspace !== undefined ? ['--workspace', options.workspace] : []), ...args];
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, argv, {
      cwd: options.cwd ?? tmpdir(),
      env: childEnv(options.home, options.env),
      timeout: options.timeoutMs ?? 30_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code, signal) =>
      resolvePromise({ code: code ?? (signal ? 128 : -1), stdout, stderr, json: parseJson(stdout) }),
    );
    child.stdin.end(options.input ?? '');
  });
}

/** Runs `work` over `items` with at most `limit` in flight; results keep the items' order. */
export async function inParallel<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function shellQuote(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * Runs the CLI inside a pseudo-terminal (util-linux `script`), so stdin and stdout are TTYs, with
 * `input` typed ahead. The pty buffers what is typed until the command reads it, so nothing
 * depends on timing. stdout has the terminal's \r\n turned back into \n; `json` is the first JSON
 * document that starts on a line of its own.
 */
export function runCliInTerminal(args: string[], options: RunOptions & { input: string }): CliResult {
  const argv = [
    process.execPath,
    CLI,
    ...(options.workspace !== undefined ? ['--workspace', options.workspace] : []),
    ...args,
  ];
  const child = spawnSync(SCRIPT, ['-qec', argv.map(shellQuote).join(' '), '/dev/null'], {
    cwd: options.cwd ?? tmpdir(),
    env: childEnv(options.home, options.env),
    input: options.input,
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (child.error) throw child.error;
  const stdout = child.stdout.replace(/\r+\n/g, '\n');
  const start = stdout.search(/^\{$/m);
  const end = stdout.search(/^\}$/m);
  const json = start >= 0 && end > start ? parseJson(stdout.slice(start, end + 1)) : undefined;
  return { code: child.status ?? -1, stdout, stderr: child.stderr, json };
}

/**
 * `lore ARGS` in a real terminal (script(1)) with a person at it: when the command shows its one-time
 * code ("type this code: 123 456") and asks for it, the code is typed back, as a person reading the
 * screen would. A person's acts (promote, trust, applying a proposal) need exactly that.
 */
export function runCliAsPerson(args: string[], options: RunOptions): Promise<CliResult> {
  const argv = [
    process.execPath,
    CLI,
    ...(options.workspace !== undefined ? ['--workspace', options.workspace] : []),
    ...args,
  ];
  const child = spawn(SCRIPT, ['-qec', argv.map(shellQuote).join(' '), '/dev/null'], {
    cwd: options.cwd ?? tmpdir(),
    env: childEnv(options.home, options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let typed = false;
  child.stderr.on('data', (d) => (err += d));
  child.stdout.on('data', (d) => {
    out += d;
    const shown = /type this code: (\d{3}) (\d{3})/.exec(out);
    if (shown && !typed && /Type the code shown above/.test(out)) {
      typed = true;
      child.stdin.write(`${shown[1]}${shown[2]}\n`);
    }
  });
  return new Promise((resolve) =>
    child.on('close', (code) => {
      const stdout = out.replace(/\r+\n/g, '\n');
      const start = stdout.search(/^\{$/m);
      const end = stdout.search(/^\}$/m);
      const json = start >= 0 && end > start ? parseJson(stdout.slice(start, end + 1)) : undefined;
      resolve({ code: code ?? -1, stdout, stderr: err, json });
    }),
  );
}

/** A throwaway LORE_HOME and workspace folder, and the `lore` command bound to them. */
export interface CliSpace {
  root: string;
  home: string;
  workspace: string;
  /** `lore --workspace <workspace> ARGS...` */
  lore(...args: string[]): CliResult;
  /** Where this workspace's store lives (computed the way the CLI does). */
  paths(): StorePaths;
  cleanup(): void;
}

export function makeSpace(prefix = 'lore-e2e-'): CliSpace {
  const root = tempDir(prefix);
  const home = join(root, 'home');
  const workspace = join(root, 'repo');
  mkdirSync(home);
  mkdirSync(workspace);
  return {
    root,
    home,
    workspace,
    lore: (...args) => runCli(args, { home, workspace }),
    paths: () => storePaths(workspace, home),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Asserts a command succeeded, showing what it printed when it did not. */
export function ok(result: CliResult, what = 'lore'): CliResult {
  assert.equal(result.code, 0, `${what} exited ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  return result;
}

/** What a user checks to see whether the store changed: `list --json` (every status) and `audit verify --json`. */
export interface StoreView {
  items: unknown[];
  total: number;
  audit: { ok: boolean; events: number; head: string };
}

export function storeView(space: CliSpace): StoreView {
  const list = ok(
    space.lore('list', '--json', '--limit', '200', ...ALL_STATUSES.flatMap((s) => ['--status', s])),
    'lore list',
  );
  const audit = ok(space.lore('audit', 'verify', '--json'), 'lore audit verify');
  return {
    items: list.json.items,
    total: list.json.total,
    audit: { ok: audit.json.ok, events: audit.json.events, head: audit.json.head },
  };
}

/** sha256 of a workspace's database file (undefined when there is none yet). */
export function fileDigest(path: string): string | undefined {
  return existsSync(path) ? createHash('sha256').update(readFileSync(path)).digest('hex') : undefined;
}

export function storeDigest(space: CliSpace): string | undefined {
  return fileDigest(space.paths().database);
}

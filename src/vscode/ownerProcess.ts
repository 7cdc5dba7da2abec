// The store's owner for one workspace folder as a child process of the editor, the way language
// servers run: `lore serve` from the bundled CLI, run by the extension host's own Node (Electron as
// Node), so SQLite, indexing and drift never share the extension host's thread. It is started with
// a pipe on stdin (--exit-with-stdin) so it stops when the extension host goes, even by a crash.
// Ready once it prints where it serves; a start that fails rejects with the CLI's own error (so
// STORE_BUSY, another process holding the store for a moment, can be waited out by connect()).

import { spawn } from 'node:child_process';
import { LoreError, type ErrorCode, type Logger } from '../engine';

export interface OwnerProcess {
  pid: number;
  /** Settles when the process ends, for whatever reason. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Stops it (SIGTERM: it closes the store and releases the lock), forcibly if it does not end. */
  stop(): Promise<void>;
  /**
   * The one-time code it sent up its stdout for a person's act (personConfirm.ts): only this
   * process, its parent, reads that pipe, so the token in owner.json alone never yields a code.
   */
  codeFor(id: string): Promise<string>;
}

/** How long the owner's code for a person's act may take to arrive on the pipe. */
const CODE_WAIT_MS = 10_000;

export interface StartOwnerOptions {
  folder: string;
  cliPath: string;
  env: NodeJS.ProcessEnv;
  logger: Logger;
}

/** How long a stopped owner has to close the store before it is killed. */
const STOP_GRACE_MS = 5000;

export function startOwner(options: StartOwnerOptions): Promise<OwnerProcess> {
  const args = [options.cliPath, '--workspace', options.folder, '--json', 'serve', '--exit-with-stdin'];
  const child = spawn(process.execPath, args, {
    cwd: options.folder,
    env: { ...options.env, ELECTRON_RUN_AS_NODE: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', () => resolve({ code: null, signal: null }));
  });
  const tail: string[] = [];
  let partial = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines.filter(Boolean)) {
      tail.push(line);
      if (tail.length > 5) tail.shift();
      options.logger.info(`lore serve (pid ${child.pid}): ${line}`);
    }
  });
  // Nothing is written to its stdin; the pipe is only there to close.
  child.stdin.on('error', () => undefined);
  const codes = new Map<string, string>();
  const waiting = new Map<string, (code: string) => void>();
  const owner: OwnerProcess = {
    pid: child.pid ?? -1,
    codeFor: (id) =>
      new Promise<string>((resolve, reject) => {
        const ready = codes.get(id);
        if (ready !== undefined) {
          codes.delete(id);
          return resolve(ready);
        }
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new LoreError('HUMAN_ONLY', 'the Lore process did not send the confirmation code'));
        }, CODE_WAIT_MS);
        waiting.set(id, (code) => {
          clearTimeout(timer);
          resolve(code);
        });
      }),
    exited,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    },
  };
  // After its first answer (where it serves), each stdout line is a code for a person's act.
  let served = false;
  let rest = '';
  const codeLines = (text: string) => {
    const lines = (rest + text).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      let said: { confirm?: { id?: unknown; code?: unknown } };
      try {
        said = JSON.parse(line);
      } catch {
        continue;
      }
      const { id, code } = said.confirm ?? {};
      if (typeof id !== 'string' || typeof code !== 'string') continue;
      const take = waiting.get(id);
      waiting.delete(id);
      if (take) take(code);
      else codes.set(id, code);
    }
  };
  return new Promise<OwnerProcess>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      if (served) return codeLines(text);
      out += text;
      type Said = { code: ErrorCode; message: string; hint?: string; details?: Record<string, unknown> };
      let said: { url?: string; error?: Said };
      try {
        said = JSON.parse(out);
      } catch {
        return; // not all of it yet
      }
      if (said.url) {
        served = true;
        resolve(owner);
      } else if (said.error) {
        reject(new LoreError(said.error.code, said.error.message, said.error.hint, said.error.details));
      }
    });
    child.once('error', (error) => {
      reject(
        new LoreError(
          'STORE_UNAVAILABLE',
          `could not start Lore's store process for ${options.folder}: ${error.message}`,
        ),
      );
    });
    void exited.then(({ code, signal }) => {
      const why = tail.length ? `: ${tail.join(' / ')}` : '';
      const how = signal ?? `exit code ${code}`;
      const ended = `Lore's store process for ${options.folder} ended (${how}) before it served${why}`;
      reject(new LoreError('STORE_UNAVAILABLE', ended, 'see the Lore log (Lore: Show Log)'));
    });
  });
}

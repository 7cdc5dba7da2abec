// The owner lock: exactly one process opens a workspace's database at a time. The owner writes
// owner.json (pid, port, token; mode 0600) next to it. A second process finds a live owner and
// gets an error naming it; a lock left by a dead process is taken over, and the SQLite lock
// directory that crash left behind is cleared so the hot journal can be rolled back. Where the
// system says when a process started (Linux /proc), owner.json records it, so a pid the system
// has since given to another program is not mistaken for the owner. Several processes that find
// the same dead owner (agents whose owner was killed) take over one at a time, under a claim file
// (`owner.json.takeover`): without it, one could delete the lock, and the SQLite lock directory,
// that another had just taken, and two processes would write the database at once.
// A process that was killed but not yet reaped by its parent (a zombie) still answers kill(pid, 0):
// /proc says it is a zombie, and a zombie owns nothing. A lock written under another host name is
// judged by the boot id it records: the same boot id is this machine (renamed, or a container that
// shares the kernel), so its pid is checked here; a lock from another machine (a data directory on a
// shared disk) is stale once its owner stopped refreshing it (`HEARTBEAT_MS`, its mtime).

import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { LoreError } from '../engine/errors';

export interface OwnerInfo {
  pid: number;
  host: string;
  port: number | null;
  /** Opens every door of the owner's HTTP server: /rpc (Lore's own CLI and editor) and /mcp. */
  token: string;
  /** Opens /mcp only: what MCP clients are given, so an agent never reaches /rpc and its human-only acts. */
  mcp_token?: string;
  door: string;
  started_at: string;
  /** The owner process's start mark (boot id and start time) where the system exposes one. */
  process_start?: string;
}

export interface OwnerLock {
  info: OwnerInfo;
  /**
   * Records the port this owner serves on, so other processes can become its clients, and from then
   * on refreshes the lock's mtime (the heartbeat another machine sharing the data directory reads).
   */
  publish(port: number): void;
  release(): void;
}

/** How often a serving owner refreshes owner.json's mtime; a lock from another machine unrefreshed for
 *  `STALE_AFTER_MS` is taken over. */
export const HEARTBEAT_MS = 15_000;
export const STALE_AFTER_MS = 8 * HEARTBEAT_MS;

/** The fields of /proc/PID/stat after the command name (which is in parentheses and may hold spaces). */
function procStat(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

function bootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return null;
  }
}

/** `<boot id>:<start time in clock ticks>` from /proc, or null where there is no /proc. */
export function processStartMark(pid: number): string | null {
  const fields = procStat(pid);
  const boot = bootId();
  // Field 22 of stat: the 20th after the command name.
  return fields && boot ? `${boot}:${fields[19]}` : null;
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A zombie (killed, not yet reaped: state Z, or X while it goes) runs nothing and holds nothing.
  const state = procStat(pid)?.[0];
  return state !== 'Z' && state !== 'X';
}

export function readOwner(ownerFile: string): OwnerInfo | undefined {
  try {
    return JSON.parse(readFileSync(ownerFile, 'utf8')) as OwnerInfo;
  } catch {
    return undefined;
  }
}

/** Whether a lock recorded under another host name was written on this machine (same kernel boot). */
function sameMachine(owner: OwnerInfo): boolean {
  if (owner.host === hostname()) return true;
  const boot = bootId();
  return boot !== null && owner.process_start?.split(':')[0] === boot;
}

export function isLive(owner: OwnerInfo, ownerFile: string): boolean {
  // Another machine's process cannot be asked: its lock holds while it keeps refreshing it.
  if (!sameMachine(owner)) return Date.now() - mtime(ownerFile) < STALE_AFTER_MS;
  if (!isProcessAlive(owner.pid)) return false;
  // Alive, but is it still the owner? A recorded start mark that differs means the pid was reused.
  const mark = owner.process_start ? processStartMark(owner.pid) : null;
  return mark === null || mark === owner.process_start;
}

/** An owner file that does not parse yet may be one being written this instant (create, then write). */
const HALF_WRITTEN_MS = 2000;

function busy(owner: OwnerInfo): LoreError {
  return new LoreError(
    'STORE_BUSY',
    `the store is in use by another Lore process (pid ${owner.pid}, ${owner.door}, since ${owner.started_at})`,
    'wait for it to finish or stop it; a lock left by a process that died is taken over automatically',
    { owner: { pid: owner.pid, door: owner.door, port: owner.port, started_at: owner.started_at } },
  );
}

const TAKING_OVER = () =>
  new LoreError(
    'STORE_BUSY',
    'another Lore process is taking the store over from one that stopped',
    'try again in a moment',
  );

/**
 * Claims the right to clear a dead owner's lock; false when another process holds that claim.
 * A claim whose process died is removed, for the next attempt to take.
 */
function claimTakeover(claimFile: string): boolean {
  try {
    writeFileSync(claimFile, JSON.stringify({ pid: process.pid, host: hostname() }) + '\n', {
      flag: 'wx',
      mode: 0o600,
    });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  let holder: { pid?: number; host?: string } | undefined;
  try {
    holder = JSON.parse(readFileSync(claimFile, 'utf8'));
  } catch {
    holder = undefined;
  }
  const alive = holder?.pid !== undefined && (holder.host !== hostname() || isProcessAlive(holder.pid));
  if (!alive && (holder || Date.now() - mtime(claimFile) > HALF_WRITTEN_MS)) rmSync(claimFile, { force: true });
  return false;
}

function mtime(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Rewrites owner.json whole (a temporary file renamed over it, so a reader never sees half of it).
 * On a full disk the old file stays, the temporary one is removed, and the owner carries on serving;
 * clients that find no port wait for it, so the error is said, not fatal.
 */
function publishOwner(ownerFile: string, info: OwnerInfo): void {
  const temp = `${ownerFile}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, JSON.stringify(info, null, 2) + '\n', { mode: 0o600 });
    renameSync(temp, ownerFile);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

function touch(ownerFile: string, token: string): void {
  try {
    if (Date.now() - mtime(ownerFile) < HEARTBEAT_MS || readOwner(ownerFile)?.token !== token) return;
    const now = new Date();
    utimesSync(ownerFile, now, now);
  } catch {
    // A full or read-only disk: the next beat tries again.
  }
}

export function acquireOwnerLock(ownerFile: string, databaseFile: string, door: string): OwnerLock {
  const info: OwnerInfo = {
    pid: process.pid,
    host: hostname(),
    port: null,
    token: randomBytes(32).toString('hex'),
    mcp_token: randomBytes(32).toString('hex'),
    door,
    started_at: new Date().toISOString(),
  };
  const mark = processStartMark(process.pid);
  if (mark) info.process_start = mark;
  const claimFile = `${ownerFile}.takeover`;
  let claimed = false;
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        // 'wx' creates exclusively: of two processes racing here, one wins.
        writeFileSync(ownerFile, JSON.stringify(info, null, 2) + '\n', { flag: 'wx', mode: 0o600 });
        let heartbeat: NodeJS.Timeout | undefined;
        return {
          info,
          publish: (port) => {
            info.port = port;
            let published = false;
            const beat = () => {
              if (published) return touch(ownerFile, info.token);
              publishOwner(ownerFile, info);
              published = true;
            };
            // Until the port is written (a full disk refuses it), the beat retries every second.
            heartbeat ??= setInterval(() => {
              try {
                beat();
              } catch {
                // Still no room: the next beat tries again.
              }
            }, 1000).unref();
            beat();
          },
          release: () => {
            if (heartbeat) clearInterval(heartbeat);
            if (readOwner(ownerFile)?.token === info.token) unlinkSync(ownerFile);
          },
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          // Created but not written (a full disk): an empty lock would hold others off for nothing.
          if (mtime(ownerFile) && statSync(ownerFile).size === 0) rmSync(ownerFile, { force: true });
          throw error;
        }
      }
      const owner = readOwner(ownerFile);
      if (owner && isLive(owner, ownerFile)) throw busy(owner);
      if (!owner && Date.now() - mtime(ownerFile) < HALF_WRITTEN_MS) throw TAKING_OVER();
      if (!claimed && !(claimed = claimTakeover(claimFile))) throw TAKING_OVER();
      // Under the claim, and only if the file is still the dead owner's (not one a process that took
      // over before us wrote), clear it: its SQLite lock directory died with it.
      if (readOwner(ownerFile)?.token !== owner?.token) continue;
      rmSync(ownerFile, { force: true });
      rmSync(`${databaseFile}.lock`, { recursive: true, force: true });
    }
    throw new LoreError(
      'STORE_BUSY',
      'could not take the store lock after three attempts',
      'another Lore process is starting at the same time; try again',
    );
  } finally {
    if (claimed) rmSync(claimFile, { force: true });
  }
}

// A person's acts (promote, trust an author, apply a session's proposal) carried by a door that
// says `human: true` need a per-act one-time code that the owner's token alone cannot give: the
// process that runs the engine makes the code and shows it where only a person looks — written to
// the terminal the asking command runs in, or handed to the editor that started the owner over
// its private stdout pipe (the editor's own modal is the confirmation) — and the act runs only when
// the code comes back with it. Holding the token (reading owner.json) is not enough: a `curl`
// with it is refused, and a script that answers "y" to a terminal prompt never typed the code.
// What a process running as the same user can still do is in docs/security.md.

import { randomInt, createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readlinkSync, writeSync } from 'node:fs';
import { LoreError } from '../engine';

/** The ops that are a person's act when their actor says `human: true`. */
export const PERSON_OPS: ReadonlySet<string> = new Set(['promote', 'trustAuthor', 'resolveInbox', 'repairSeals']);

/** Where the code is shown: a terminal device the asking command runs in, or the owner's parent (the editor). */
export type CodeChannel = { tty: string } | { parent: true };

/** What a door that relays a person's act gives remoteApi: where to show the code, and how to read it back. */
export interface PersonConfirmer {
  channel: CodeChannel;
  /** The code the person typed (or the editor received), for the pending confirmation `id`. */
  code(id: string): Promise<string>;
}

/** A code lives two minutes and is good for one try at one act. */
const CODE_TTL_MS = 120_000;
const MAX_PENDING = 16;

export function isPersonAct(op: string, args: readonly unknown[]): boolean {
  const actor = args[0] as { human?: unknown } | undefined;
  return PERSON_OPS.has(op) && actor?.human === true;
}

/** The act a code is bound to: its op and every argument, so a code for one key never promotes another. */
function actDigest(op: string, args: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify({ op, args })).digest('hex');
}

export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** C0, DEL, C1 and the bidi controls: what could drive or reorder the terminal the code is shown on. */
function isControl(c: string): boolean {
  const n = c.codePointAt(0)!;
  return (
    n < 0x20 ||
    (n >= 0x7f && n <= 0x9f) ||
    n === 0x200e ||
    n === 0x200f ||
    (n >= 0x202a && n <= 0x202e) ||
    (n >= 0x2066 && n <= 0x2069)
  );
}

/** The act in a few words for the line the code is shown on. */
export function describeAct(op: string, args: readonly unknown[]): string {
  if (op === 'repairSeals') return 'restore the sealed values lore doctor showed';
  const what = typeof args[1] === 'string' ? args[1].slice(0, 80) : '';
  const verb = op === 'trustAuthor' ? 'trust the author' : op === 'resolveInbox' ? 'apply inbox item' : 'promote';
  // The key is a client's text: no control character of it reaches the terminal the code is shown on.
  return [...`${verb} ${what}`.trim()].map((c) => (isControl(c) ? '?' : c)).join('');
}

/** The terminal this process's stdin is, as a device path; null when stdin is no terminal (or it cannot be told). */
export function ownTerminal(): string | null {
  if (!process.stdin.isTTY) return null;
  try {
    const target = readlinkSync('/proc/self/fd/0');
    return /^\/dev\/(pts\/\d+|tty\w*)$/.test(target) ? target : null;
  } catch {
    return null;
  }
}

/**
 * Writes the code to a terminal device: only a terminal of this user (a character device under
 * /dev it owns) is written to, so a request cannot make the owner write into a file.
 */
export function showOnTerminal(tty: string, text: string): void {
  if (!/^\/dev\/(pts\/\d+|tty\w*)$/.test(tty))
    throw new LoreError('HUMAN_ONLY', `${JSON.stringify(tty.slice(0, 40))} is not a terminal device`);
  let fd: number;
  try {
    fd = openSync(tty, constants.O_WRONLY | constants.O_NOCTTY | constants.O_NONBLOCK);
  } catch (error) {
    throw new LoreError('HUMAN_ONLY', `cannot show a confirmation code on ${tty}: ${(error as Error).message}`);
  }
  try {
    const stat = fstatSync(fd);
    const uid = process.getuid?.();
    if (!stat.isCharacterDevice() || (uid !== undefined && uid !== 0 && stat.uid !== uid))
      throw new LoreError('HUMAN_ONLY', `${tty} is not a terminal of this user`);
    writeSync(fd, text.replace(/\r?\n/g, '\r\n'));
  } finally {
    closeSync(fd);
  }
}

/** The line a person reads: the act, then the code, on the terminal only they see. */
export function codeLine(op: string, args: readonly unknown[], code: string): string {
  return `\nLore: to ${describeAct(op, args)}, type this code: ${code.slice(0, 3)} ${code.slice(3)}\n`;
}

/** Whether what was typed is the code (spaces and dashes a person adds are ignored). */
export function sameCode(typed: string, code: string): boolean {
  return typed.replace(/[\s-]/g, '') === code;
}

interface Pending {
  digest: string;
  code: string;
  expires: number;
}

/** The owner's pending confirmations: one per act asked for, each used (or burnt) by one try. */
export class PersonConfirmations {
  private pending = new Map<string, Pending>();

  constructor(private readonly toParent?: (line: string) => void) {}

  /** Makes a code for the act and shows it on the channel; answers with the id only, never the code. */
  begin(op: string, args: readonly unknown[], channel: unknown): { id: string } {
    if (!isPersonAct(op, args))
      throw new LoreError('INVALID_INPUT', `${op} is not a person's act that needs a confirmation code`);
    this.prune();
    if (this.pending.size >= MAX_PENDING)
      throw new LoreError('HUMAN_ONLY', 'too many confirmations are waiting', 'answer or cancel the ones asked for');
    const code = newCode();
    const id = newCode() + newCode();
    const where = channel as Partial<{ tty: unknown; parent: unknown }> | null;
    if (where && typeof where.tty === 'string') showOnTerminal(where.tty, codeLine(op, args, code));
    else if (where?.parent === true && this.toParent) this.toParent(JSON.stringify({ confirm: { id, code } }));
    else
      throw new LoreError(
        'HUMAN_ONLY',
        `${describeAct(op, args)} is a person's act and there is no terminal or editor to show its code on`,
        'run the lore command yourself in an interactive terminal, or use the editor',
      );
    this.pending.set(id, { digest: actDigest(op, args), code, expires: Date.now() + CODE_TTL_MS });
    return { id };
  }

  /** Lets the act through only with the code shown for this very act; any try uses the code up. */
  check(op: string, args: readonly unknown[], confirm: unknown): void {
    const given = confirm as Partial<{ id: unknown; code: unknown }> | null | undefined;
    const pending = typeof given?.id === 'string' ? this.pending.get(given.id) : undefined;
    if (pending) this.pending.delete(given!.id as string);
    const good =
      pending !== undefined &&
      pending.expires > Date.now() &&
      pending.digest === actDigest(op, args) &&
      typeof given?.code === 'string' &&
      sameCode(given.code, pending.code);
    if (good) return;
    throw new LoreError(
      'HUMAN_ONLY',
      pending
        ? `${describeAct(op, args)} was not confirmed: the code did not match (it is used up; ask again)`
        : `${describeAct(op, args)} is a person's act and came without the one-time code shown to a person`,
      'run the lore command yourself in an interactive terminal and type the code it shows, or use the editor',
    );
  }

  private prune(): void {
    const now = Date.now();
    for (const [id, p] of this.pending) if (p.expires <= now) this.pending.delete(id);
  }
}

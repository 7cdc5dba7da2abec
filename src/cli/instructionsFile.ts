// Reading the store for agent instructions and writing them into the repository's files: the live
// dead ends, decisions and conventions with their anchors and verification (drift scanned first,
// so an anchor that moved since the last scan already counts), rendered by the engine
// (search/instructions.ts), and the block replaced in AGENTS.md, CLAUDE.md or .cursor/rules/lore.mdc
// only when its bytes change. `lore export instructions` writes; `lore check` compares.

import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  INSTRUCTION_FILES,
  currentBlock,
  findBlock,
  renderInstructions,
  spliceBlock,
  type InstructionBlock,
  type InstructionFormat,
  type InstructionRecord,
} from '../engine';
import type { EngineApi } from '../host/engineApi';
import { UsageError } from './parse';

const TYPES = ['dead_end', 'decision', 'convention'];
/** verifyMemories reads at most this many keys a call. */
const VERIFY_CHUNK = 200;

/** Active dead ends, decisions and conventions with anchors and verification (drift scanned first if `scan`). */
export async function instructionRecords(engine: EngineApi, scan = true): Promise<InstructionRecord[]> {
  if (scan) await engine.driftScan();
  const out: InstructionRecord[] = [];
  for (let offset: number | null = 0; offset !== null;) {
    const page = await engine.list({ types: TYPES, statuses: ['active'], limit: VERIFY_CHUNK, offset });
    const verified = await engine.verifyMemories(page.items.map((m) => m.key));
    for (const m of page.items) {
      const { memory } = await engine.get(m.key);
      out.push({
        key: m.key,
        type: m.type,
        title: m.title,
        description: m.description,
        status: m.status,
        anchors: memory.anchors,
        valid_from: m.valid_from,
        verification: verified[m.key],
      });
    }
    offset = page.next_offset;
  }
  return out;
}

/** A file's text, or null when absent; refused when it is not UTF-8 (its bytes could not be kept). */
export function readInstructionFile(path: string): string | null {
  if (!existsSync(path)) return null;
  const bytes = readFileSync(path);
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes))
    throw new UsageError(`${path} is not UTF-8 text, so Lore cannot keep the rest of it as it is; not written`);
  return text;
}

export interface InstructionWrite {
  format: InstructionFormat;
  path: string;
  /** created: a new file; added: a block appended to a file without one; updated: the block replaced. */
  outcome: 'created' | 'added' | 'updated' | 'unchanged';
  bytes: number;
  included: string[];
  left_out: InstructionBlock['left_out'];
}

/** Writes the block into the format's file under `root` (atomically, and only when it changes). */
export function writeInstructions(root: string, format: InstructionFormat, block: InstructionBlock): InstructionWrite {
  const relative = INSTRUCTION_FILES[format];
  const path = join(root, relative);
  const before = readInstructionFile(path);
  let after: string;
  try {
    after = spliceBlock(before, block.text, format);
  } catch (error) {
    throw new UsageError(`${relative}: ${(error as Error).message}; not written`);
  }
  const outcome =
    before === null ? 'created' : before === after ? 'unchanged' : currentBlock(before) ? 'updated' : 'added';
  if (outcome !== 'unchanged') {
    mkdirSync(dirname(path), { recursive: true });
    const temporary = `${path}.lore-${process.pid}.tmp`;
    writeFileSync(temporary, after);
    renameSync(temporary, path);
  }
  const { included, left_out } = block;
  return { format, path: relative, outcome, bytes: Buffer.byteLength(block.text), included, left_out };
}

/** A committed block that no longer matches what export would write now. */
export interface StaleInstructions {
  path: string;
  line: number;
  /** Keys the committed block lists that export would now leave out (each with why). */
  dropped: Array<{ key: string; why: string }>;
  /** Keys export would add. */
  added: string[];
}

const KEY_IN_LINE = /^- `([^`]+)` \*\*/;

function listedKeys(block: string): string[] {
  return block
    .split('\n')
    .map((l) => KEY_IN_LINE.exec(l)?.[1])
    .filter((k): k is string => Boolean(k));
}

/**
 * The lines (first, last; 1-based) of Lore's block in each instruction file under `root` that has
 * one: the references there are Lore's own, reported once as a stale block, not again as a doc's.
 */
export function instructionBlockLines(root: string): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  for (const relative of new Set(Object.values(INSTRUCTION_FILES))) {
    try {
      const text = readInstructionFile(join(root, relative));
      const span = text === null ? null : findBlock(text);
      if (!text || !span) continue;
      const lineAt = (offset: number) => text.slice(0, offset).split('\n').length;
      out.set(relative, [lineAt(span.start), lineAt(span.end - 1)]);
    } catch {
      // A file Lore cannot read as its own is left to the doc findings.
    }
  }
  return out;
}

/** Each instruction file under `root` whose Lore block differs from `records`' block now. */
export function staleInstructions(root: string, records: InstructionRecord[]): StaleInstructions[] {
  const now = renderInstructions(records);
  const why = new Map(now.left_out.map((l) => [l.key, l.why]));
  const out: StaleInstructions[] = [];
  for (const relative of new Set(Object.values(INSTRUCTION_FILES))) {
    let text: string | null;
    let committed: string | null;
    try {
      text = readInstructionFile(join(root, relative));
      committed = text === null ? null : currentBlock(text);
    } catch {
      continue;
    }
    if (text === null || committed === null || committed === now.text) continue;
    const was = listedKeys(committed);
    out.push({
      path: relative,
      line: text.slice(0, text.indexOf(committed)).split('\n').length,
      dropped: was
        .filter((k) => !now.included.includes(k))
        .map((k) => ({ key: k, why: why.get(k) ?? 'no longer live' })),
      added: now.included.filter((k) => !was.includes(k)),
    });
  }
  return out;
}

// Fenced code blocks as CommonMark reads them, one line at a time: the one fence reader of the engine
// (chunking, kind features, procedures, drift's references and sections, ADR bodies, the editor's
// anchors). An opener is a run of three or more backticks or tildes (a backtick opener's info string
// holds no backtick, so ```x``` on a line of its own is a code span); it is closed only by a run of
// the same character at least as long with nothing after it, indented up to three spaces more than
// its opener (a list item's block), so `~~~` never closes a ``` block. An opener may be indented
// past three spaces: a fence inside a list item is indented by the item's width. An opener may also
// follow a list marker on the item's first line (`  - ```json`, as GitHub renders it); that fence
// belongs to the item, so it also ends where the item does, at a line written left of the item's text.

const OPENER = /^([ \t]*)(`{3,}|~{3,})(.*)$/;
const CLOSER = /^([ \t]*)(`{3,}|~{3,})[ \t]*$/;
/** A list item's first line whose text is a fence opener: `- ```json`, `1. ~~~`. */
const ITEM_OPENER = /^([ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+)(`{3,}|~{3,})(.*)$/;

export type FenceLine = 'open' | 'close' | 'code' | 'text';

export class FenceTracker {
  /** `item`: the column of the list item's text when the fence opened on the item's marker line, else -1. */
  private fence: { run: string; indent: number; info: string; item: number } | null = null;

  /** What this line is: opens or closes a fence, is code inside one, or is text outside. */
  step(line: string): FenceLine {
    if (this.fence && this.fence.item >= 0 && leftOfItem(line, this.fence.item)) this.fence = null;
    if (this.fence) {
      const close = CLOSER.exec(line);
      const fits = close && close[2][0] === this.fence.run[0] && close[2].length >= this.fence.run.length;
      if (fits && close[1].length <= this.fence.indent + 3) {
        this.fence = null;
        return 'close';
      }
      return 'code';
    }
    const open = OPENER.exec(line);
    const inItem = open ? null : ITEM_OPENER.exec(line);
    const found = open ?? inItem;
    if (!found || (found[2][0] === '`' && found[3].includes('`'))) return 'text';
    const item = inItem ? inItem[1].length : -1;
    this.fence = { run: found[2], indent: inItem ? item : found[1].length, info: found[3].trim(), item };
    return 'open';
  }

  /** The run (``` or ~~~, as long as it was written) of the fence still open, or null. */
  get open(): string | null {
    return this.fence?.run ?? null;
  }

  /** The info string of the fence still open (`sh` in ```sh), or ''. */
  get info(): string {
    return this.fence?.info ?? '';
  }
}

/** A written line that starts left of a list item's text: the item, and a fence it holds, end there. */
function leftOfItem(line: string, column: number): boolean {
  const text = line.trimStart();
  return text !== '' && line.length - text.length < column;
}

/** A markdown line with its number (0-based) and what it is to fences. */
export interface MarkdownLine {
  line: string;
  index: number;
  fence: FenceLine;
}

/** The lines of a markdown text (LF or CRLF), each with its fence state. */
export function markdownLines(text: string | string[]): MarkdownLine[] {
  const fences = new FenceTracker();
  const lines = Array.isArray(text) ? text : text.split(/\r?\n/);
  return lines.map((line, index) => ({ line, index, fence: fences.step(line) }));
}

/** The fence (``` or ~~~, as long as it was written) a markdown text leaves open at its end, if any. */
export function openFence(text: string): string | null {
  const fences = new FenceTracker();
  for (const line of text.split(/\r?\n/)) fences.step(line);
  return fences.open;
}

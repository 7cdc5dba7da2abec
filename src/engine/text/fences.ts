// Fenced code blocks as CommonMark reads them, one line at a time: the one fence reader of the engine
// (chunking, kind features, procedures, drift's references and sections, ADR bodies, the editor's
// anchors). An opener is a run of three or more backticks or tildes (a backtick opener's info string
// holds no backtick, so ```x``` on a line of its own is a code span); it is closed only by a run of
// the same character at least as long with nothing after it, indented up to three spaces more than
// its opener (a list item's block), so `~~~` never closes a ``` block. An opener may be indented
// past three spaces: this reader does not track list items, and a fence inside one is indented by
// the item's width.

const OPENER = /^([ \t]*)(`{3,}|~{3,})(.*)$/;
const CLOSER = /^([ \t]*)(`{3,}|~{3,})[ \t]*$/;

export type FenceLine = 'open' | 'close' | 'code' | 'text';

export class FenceTracker {
  private fence: { run: string; indent: number; info: string } | null = null;

  /** What this line is: opens or closes a fence, is code inside one, or is text outside. */
  step(line: string): FenceLine {
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
    if (!open || (open[2][0] === '`' && open[3].includes('`'))) return 'text';
    this.fence = { run: open[2], indent: open[1].length, info: open[3].trim() };
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

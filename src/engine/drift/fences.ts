// Fenced code blocks as CommonMark reads them, one line at a time, for the two readers of markdown
// drift has (reference extraction and heading sections): an opener of three or more backticks or
// tildes indented up to three spaces (a backtick opener's info string holds no backtick, so
// ```x``` on a line of its own is a code span), closed by a run of the same character at least as
// long with nothing after it, indented up to three spaces more than its opener (a list item's block).

const OPENER = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const CLOSER = /^( *)(`{3,}|~{3,})\s*$/;

export type FenceLine = 'open' | 'close' | 'code' | 'text';

export class FenceTracker {
  private fence: { run: string; indent: number } | null = null;

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
    this.fence = { run: open[2], indent: open[1].length };
    return 'open';
  }
}

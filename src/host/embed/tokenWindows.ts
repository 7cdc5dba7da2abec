// Token windows: how the embedding worker turns texts into model inputs and back into one vector
// per text. A text longer than the sequence cap is split into windows of at most `cap` tokens
// (each wrapped in the model's own special tokens) rather than cut off, and its vector is the
// mean over every token of every window, L2-normalised — what mean pooling gives for one long
// sequence, without attention's quadratic cost. Each window is a row of its own, grouped with
// windows of similar length, and a call is padded only to the longest of its rows.

/** Token ids of one text, without special tokens, and the tokens that wrap each window. */
export interface Encoder {
  /** Ids of `text` without special tokens. */
  body(text: string): number[];
  /** What the tokenizer puts before and after a sequence (e.g. [CLS] and [SEP]). */
  prefix: number[];
  suffix: number[];
}

/** Splits a text's ids into windows of at most `cap` tokens, special tokens included. */
export function tokenWindows(encoder: Encoder, text: string, cap: number): number[][] {
  const body = encoder.body(text);
  const room = Math.max(1, cap - encoder.prefix.length - encoder.suffix.length);
  const out: number[][] = [];
  for (let at = 0; at < body.length || out.length === 0; at += room) {
    out.push([...encoder.prefix, ...body.slice(at, at + room), ...encoder.suffix]);
  }
  return out;
}

export interface PaddedBatch {
  /** Row-major [rows, width] int64 ids, padded with `pad`. */
  ids: BigInt64Array;
  mask: BigInt64Array;
  rows: number;
  width: number;
  /** Real tokens per row. */
  lengths: number[];
}

export function padBatch(windows: number[][], pad: number): PaddedBatch {
  const width = Math.max(1, ...windows.map((w) => w.length));
  const ids = new BigInt64Array(windows.length * width).fill(BigInt(pad));
  const mask = new BigInt64Array(windows.length * width);
  windows.forEach((w, row) => {
    for (let i = 0; i < w.length; i++) {
      ids[row * width + i] = BigInt(w[i]);
      mask[row * width + i] = 1n;
    }
  });
  return { ids, mask, rows: windows.length, width, lengths: windows.map((w) => w.length) };
}

/**
 * Mean pooling over the real tokens of every window of each text, fed one model call at a time
 * (a text's windows may fall in different calls), then L2 normalisation: one row of `dims` floats
 * per text.
 */
export class MeanPool {
  private sums: Float32Array | undefined;
  private readonly tokens: number[];
  dims = 0;

  constructor(private readonly texts: number) {
    this.tokens = new Array<number>(texts).fill(0);
  }

  /** Adds one call's output: row r of `batch` belongs to text `textOfRow[r]`. */
  add(hidden: Float32Array, batch: PaddedBatch, dims: number, textOfRow: number[]): void {
    this.dims = dims;
    const sums = (this.sums ??= new Float32Array(this.texts * dims));
    for (let row = 0; row < batch.rows; row++) {
      const text = textOfRow[row];
      const length = batch.lengths[row];
      const base = text * dims;
      this.tokens[text] += length;
      for (let t = 0; t < length; t++) {
        const at = (row * batch.width + t) * dims;
        for (let d = 0; d < dims; d++) sums[base + d] += hidden[at + d];
      }
    }
  }

  /** The pooled, normalised vectors, row-major. */
  finish(): Float32Array {
    const out = this.sums ?? new Float32Array(0);
    const dims = this.dims;
    for (let text = 0; text < this.texts; text++) {
      const base = text * dims;
      const tokens = Math.max(1, this.tokens[text]);
      let norm = 0;
      for (let d = 0; d < dims; d++) {
        out[base + d] /= tokens;
        norm += out[base + d] * out[base + d];
      }
      norm = Math.sqrt(norm) || 1;
      for (let d = 0; d < dims; d++) out[base + d] /= norm;
    }
    return out;
  }
}

/**
 * The model calls for a request's windows: every window is a row of its own, longest first, at
 * most `rows` per call. A text split into windows thus never pads its short last window to the
 * cap, and a call holds windows of similar length whatever text they came from.
 */
export function windowCalls(pieces: number[][][], rows: number): { windows: number[][]; textOfRow: number[] }[] {
  const all = pieces.flatMap((windows, text) => windows.map((ids) => ({ ids, text })));
  all.sort((a, b) => b.ids.length - a.ids.length);
  const size = Math.max(1, rows);
  const calls: { windows: number[][]; textOfRow: number[] }[] = [];
  for (let at = 0; at < all.length; at += size) {
    const part = all.slice(at, at + size);
    calls.push({ windows: part.map((p) => p.ids), textOfRow: part.map((p) => p.text) });
  }
  return calls;
}

/** The sequence cap in use: the one asked for, never past what the model's positions allow. */
export function sequenceCap(asked: number, modelLimit: number | undefined): number {
  const limit = modelLimit && Number.isFinite(modelLimit) && modelLimit > 0 ? modelLimit : asked;
  return Math.max(8, Math.min(asked, limit));
}

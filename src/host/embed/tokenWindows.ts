// Token windows: how the embedding worker turns texts into model inputs and back into one vector
// per text. A text longer than the sequence cap is split into windows of at most `cap` tokens
// (each wrapped in the model's own special tokens) rather than cut off, and its vector is the
// mean over every token of every window, L2-normalised — what mean pooling gives for one long
// sequence, without attention's quadratic cost. Windows of one batch are padded only to the
// longest of them, so callers send texts of similar length together.

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
 * Mean pooling over the real tokens of each text's windows (`windowsPerText` consecutive rows
 * each), then L2 normalisation: one row of `dims` floats per text.
 */
export function poolWindows(
  hidden: Float32Array,
  batch: PaddedBatch,
  dims: number,
  windowsPerText: number[],
): Float32Array {
  const out = new Float32Array(windowsPerText.length * dims);
  let row = 0;
  windowsPerText.forEach((count, text) => {
    const sum = out.subarray(text * dims, (text + 1) * dims);
    let tokens = 0;
    for (let w = 0; w < count; w++, row++) {
      const length = batch.lengths[row];
      tokens += length;
      for (let t = 0; t < length; t++) {
        const at = (row * batch.width + t) * dims;
        for (let d = 0; d < dims; d++) sum[d] += hidden[at + d];
      }
    }
    let norm = 0;
    for (let d = 0; d < dims; d++) {
      sum[d] /= Math.max(1, tokens);
      norm += sum[d] * sum[d];
    }
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < dims; d++) sum[d] /= norm;
  });
  return out;
}

/** The sequence cap in use: the one asked for, never past what the model's positions allow. */
export function sequenceCap(asked: number, modelLimit: number | undefined): number {
  const limit = modelLimit && Number.isFinite(modelLimit) && modelLimit > 0 ? modelLimit : asked;
  return Math.max(8, Math.min(asked, limit));
}

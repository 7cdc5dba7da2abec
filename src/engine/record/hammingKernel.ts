// The Hamming distance of every sign code to a query's, as a WebAssembly function. A one-shot
// recall runs this loop once, over every code (3 million 32-bit words at 250k vectors of 384
// dimensions), before V8 has optimised JavaScript for it; WebAssembly is compiled before it runs,
// and counts bits 64 at a time with the CPU's own instruction. Same distances as counting in
// JavaScript (test/unit/engine/search/vectors.test.ts). The module is assembled here from its
// instructions (about 170 bytes), so what runs can be read below.
//
// Memory layout (the caller's): codes at 0, `stride` 64-bit words each (a code with an odd number
// of 32-bit words is padded with a zero word); then the query's code, padded the same way; then a
// u16 distance per code; then a u32 histogram of distances (0..64·stride).

const I32 = 0x7f;
const uleb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return out;
};
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const section = (id: number, bytes: number[]): number[] => [id, ...uleb(bytes.length), ...bytes];
const name = (s: string): number[] => [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];

// Opcodes (WebAssembly 1.0 core).
const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const END = 0x0b;
const BR_IF_0 = [0x0d, 0];
const get = (i: number) => [0x20, i];
const set = (i: number) => [0x21, i];
const tee = (i: number) => [0x22, i];
const i32 = (n: number) => [0x41, n]; // small non-negative constants only (< 64)
const ADD = 0x6a;
const SHL = 0x74;
const EQZ = 0x45;
const LT_U = 0x49;
const I32_LOAD = [0x28, 2, 0];
const I32_STORE = [0x36, 2, 0];
const I32_STORE16 = [0x3b, 1, 0];
const I64_LOAD = [0x29, 3, 0];
const I64_XOR = 0x85;
const I64_POPCNT = 0x7b;
const WRAP = 0xa7;

// distances(codes, count, stride, probe, out, hist): addresses and sizes; its locals i, w, d and
// at (the address of the code's next word). Memory accesses are little-endian, as typed arrays are here.
const [CODES, COUNT, STRIDE, PROBE, OUT, HIST, I, W, D, AT] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
// prettier-ignore
const BODY = [
  ...BLOCK,
  ...get(COUNT), EQZ, ...BR_IF_0, // no codes: nothing to do
  ...get(CODES), ...set(AT),
  ...LOOP, // every code i
  ...i32(0), ...set(D), ...i32(0), ...set(W),
  ...LOOP, // every 64-bit word w of it: d += popcount(code[w] ^ probe[w])
  ...get(D),
  ...get(AT), ...I64_LOAD,
  ...get(PROBE), ...get(W), ...i32(3), SHL, ADD, ...I64_LOAD,
  I64_XOR, I64_POPCNT, WRAP, ADD, ...set(D),
  ...get(AT), ...i32(8), ADD, ...set(AT),
  ...get(W), ...i32(1), ADD, ...tee(W), ...get(STRIDE), LT_U, ...BR_IF_0,
  END,
  ...get(OUT), ...get(I), ...i32(1), SHL, ADD, ...get(D), ...I32_STORE16, // out[i] = d
  ...get(HIST), ...get(D), ...i32(2), SHL, ADD, ...tee(D), // hist[d]++ (d now its address)
  ...get(D), ...I32_LOAD, ...i32(1), ADD, ...I32_STORE,
  ...get(I), ...i32(1), ADD, ...tee(I), ...get(COUNT), LT_U, ...BR_IF_0,
  END,
  END,
  END,
];
const FUNCTION = [...vec([[4, I32]]), ...BODY];
const MAGIC_AND_VERSION = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
const MODULE = new Uint8Array([
  ...MAGIC_AND_VERSION,
  ...section(1, vec([[0x60, ...vec([[I32], [I32], [I32], [I32], [I32], [I32]]), ...vec([])]])),
  ...section(2, vec([[...name('env'), ...name('memory'), 0x02, 0x00, ...uleb(1)]])),
  ...section(3, vec([[0]])),
  ...section(7, vec([[...name('distances'), 0x00, 0]])),
  ...section(10, vec([[...uleb(FUNCTION.length), ...FUNCTION]])),
]);

/** The part of the WebAssembly API used here (this project's TypeScript libs declare none of it). */
interface Wasm {
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly;
let compiled: object | undefined;

/** Codes laid out for the kernel, in memory it owns; `codes` is the view to fill, code after code. */
export class HammingCodes {
  private readonly memory: { buffer: ArrayBuffer };
  /** 64-bit words per code (32-bit words rounded up to an even number). */
  readonly stride: number;
  /** The codes, `stride * 2` 32-bit words each (the last one zero when `words` is odd). */
  readonly codes: Uint32Array;
  private readonly run: (...addressesAndSizes: number[]) => void;
  private readonly probeAt: number;
  private readonly outAt: number;
  private readonly histAt: number;

  constructor(
    readonly count: number,
    readonly words: number,
  ) {
    this.stride = Math.ceil(words / 2);
    const codeBytes = count * this.stride * 8;
    this.probeAt = codeBytes;
    this.outAt = this.probeAt + this.stride * 8;
    this.histAt = this.outAt + Math.ceil((count * 2) / 8) * 8;
    const bytes = this.histAt + (this.stride * 64 + 2) * 4;
    this.memory = new wasm.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) });
    compiled ??= new wasm.Module(MODULE);
    const instance = new wasm.Instance(compiled, { env: { memory: this.memory } });
    this.run = instance.exports.distances as HammingCodes['run'];
    this.codes = new Uint32Array(this.memory.buffer, 0, count * this.stride * 2);
  }

  /** Copies `codes` (whole codes of `words` 32-bit words each) in from code number `at` on. */
  fill(codes: Uint32Array, at: number): void {
    const step = this.stride * 2;
    if (step === this.words) return this.codes.set(codes, at * step);
    for (let i = 0, from = 0; from < codes.length; i++, from += this.words)
      this.codes.set(codes.subarray(from, from + this.words), (at + i) * step);
  }

  /** Bytes held. */
  get byteLength(): number {
    return this.memory.buffer.byteLength;
  }

  /** Every code's distance to `probe` (a code of `words` 32-bit words), and how many codes have each distance. */
  distances(probe: Uint32Array): { distances: Uint16Array; histogram: Uint32Array } {
    const padded = new Uint32Array(this.memory.buffer, this.probeAt, this.stride * 2);
    padded.fill(0);
    padded.set(probe.subarray(0, this.words));
    const histogram = new Uint32Array(this.memory.buffer, this.histAt, this.stride * 64 + 2);
    histogram.fill(0);
    this.run(0, this.count, this.stride, this.probeAt, this.outAt, this.histAt);
    return { distances: new Uint16Array(this.memory.buffer, this.outAt, this.count), histogram };
  }
}

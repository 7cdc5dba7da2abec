// Writes a random-weight BERT-shaped encoder as a local transformers.js model, so tests and
// benchmarks can run the real embedding pipeline where no weights can be downloaded:
//
//   <dir>/<name>/config.json, tokenizer.json, tokenizer_config.json,
//   <dir>/<name>/onnx/model.onnx (fp32) and/or onnx/model_quantized.onnx (q8)
//
// Load it with env.localModelPath = <dir>, env.allowRemoteModels = false and model id <name>.
// The graph is a real post-LN transformer encoder: word + position + token-type embeddings,
// LayerNorm, then per layer multi-head self-attention (masked by attention_mask) and a
// feed-forward block (GELU approximated as x·sigmoid(1.702x)), each with a residual and LayerNorm.
// Inputs input_ids, attention_mask, token_type_ids: int64 [batch, sequence]; output
// last_hidden_state: float32 [batch, sequence, hidden]. The weights mean nothing: vectors differ
// by input but carry no semantics.
//
//   npx tsx scripts/makeTinyModel.ts <dir> [--preset tiny|minilm] [--name NAME] [--seed N]
//       [--hidden N] [--layers N] [--heads N] [--intermediate N] [--vocab N] [--q8] [--fp32]

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DataType,
  encodeModel,
  floatTensor,
  int64Tensor,
  int8Tensor,
  type OnnxModel,
  type OnnxNode,
  type OnnxTensor,
} from './onnxWriter';
import { buildVocabulary, tokenizerConfigJson, tokenizerJson } from './tinyVocab';
import { prng } from './prng';

export type TinyModelDtype = 'fp32' | 'q8';

export interface TinyModelOptions {
  /**
   * Model id: the folder under the output directory. Default "tiny-bert" (or "minilm-random" for the minilm preset).
   */
  name?: string;
  hidden?: number;
  layers?: number;
  heads?: number;
  intermediate?: number;
  /** Pads the built-in vocabulary (~900 tokens) to this size with [unusedN] tokens. */
  vocabSize?: number;
  maxPositions?: number;
  seed?: number;
  /** Which files to write: fp32 → onnx/model.onnx, q8 → onnx/model_quantized.onnx (MatMulInteger). Default ['fp32']. */
  dtypes?: TinyModelDtype[];
}

export const PRESETS: Record<'tiny' | 'minilm', TinyModelOptions> = {
  tiny: { name: 'tiny-bert', hidden: 32, layers: 2, heads: 4, intermediate: 64, maxPositions: 512 },
  // The shape of sentence-transformers/all-MiniLM-L6-v2 (BERT vocabulary size, 6 layers, 384 hidden).
  minilm: {
    name: 'minilm-random',
    hidden: 384,
    layers: 6,
    heads: 12,
    intermediate: 1536,
    vocabSize: 30522,
    maxPositions: 512,
  },
};

export interface TinyModel {
  /** The directory to use as transformers.js env.localModelPath. */
  dir: string;
  /** The model id (folder name) under `dir`. */
  name: string;
  /** The model folder, `dir/name`. */
  path: string;
  hidden: number;
  vocabSize: number;
  files: string[];
}

class GraphBuilder {
  readonly nodes: OnnxNode[] = [];
  readonly floats = new Map<string, { dims: number[]; data: Float32Array }>();
  readonly others: OnnxTensor[] = [];
  private counter = 0;
  private readonly random: () => number;

  constructor(
    seed: number,
    readonly quantize: boolean,
  ) {
    this.random = prng(seed);
  }

  /** Adds a node with one output and returns that output's name. */
  op(op: string, inputs: string[], attributes?: OnnxNode['attributes'], output?: string): string {
    const out = output ?? `${op.toLowerCase()}_${this.counter++}`;
    this.nodes.push({ op, inputs, outputs: [out], attributes });
    return out;
  }

  private gaussian(n: number, std: number): Float32Array {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i += 2) {
      const u = 1 - this.random();
      const v = this.random();
      const r = Math.sqrt(-2 * Math.log(u)) * std;
      out[i] = r * Math.cos(2 * Math.PI * v);
      if (i + 1 < n) out[i + 1] = r * Math.sin(2 * Math.PI * v);
    }
    return out;
  }

  weight(name: string, dims: number[], std: number): string {
    this.floats.set(name, {
      dims,
      data: this.gaussian(
        dims.reduce((a, b) => a * b, 1),
        std,
      ),
    });
    return name;
  }

  constant(name: string, dims: number[], values: number[]): string {
    this.floats.set(name, { dims, data: Float32Array.from(values) });
    return name;
  }

  int64(name: string, dims: number[], values: number[]): string {
    this.others.push(int64Tensor(name, dims, values));
    return name;
  }

  /** x·W + b; with `quantize`, W is stored as int8 and multiplied with MatMulInteger, as dynamic quantization does. */
  linear(x: string, name: string, inDim: number, outDim: number): string {
    const bias = this.constant(
      `${name}.bias`,
      [outDim],
      new Array(outDim).fill(0).map(() => (this.random() - 0.5) * 0.02),
    );
    const std = 1 / Math.sqrt(inDim);
    if (!this.quantize)
      return this.op('Add', [this.op('MatMul', [x, this.weight(`${name}.weight`, [inDim, outDim], std)]), bias]);
    const w = this.gaussian(inDim * outDim, std);
    let max = 0;
    for (const v of w) max = Math.max(max, Math.abs(v));
    const scale = max / 127 || 1;
    const q = Int8Array.from(w, (v) => Math.max(-127, Math.min(127, Math.round(v / scale))));
    this.others.push(int8Tensor(`${name}.weight_q`, [inDim, outDim], q));
    this.others.push(int8Tensor(`${name}.weight_zp`, [], Int8Array.of(0)));
    const wScale = this.constant(`${name}.weight_scale`, [], [scale]);
    const dq = `${name}.x_q`;
    const dqScale = `${name}.x_scale`;
    const dqZero = `${name}.x_zp`;
    this.nodes.push({ op: 'DynamicQuantizeLinear', inputs: [x], outputs: [dq, dqScale, dqZero] });
    const product = this.op('MatMulInteger', [dq, `${name}.weight_q`, dqZero, `${name}.weight_zp`]);
    const asFloat = this.op('Cast', [product], { to: DataType.FLOAT });
    const scaled = this.op('Mul', [asFloat, this.op('Mul', [dqScale, wScale])]);
    return this.op('Add', [scaled, bias]);
  }

  /**
   * Rows of an embedding table picked by `ids`; with `quantize`, the table is stored as int8 and
   * the rows dequantized after the Gather, as dynamic quantization does (the real q8 MiniLM's
   * word embeddings are int8 too: its file is a quarter of the fp32 one).
   */
  embedding(name: string, dims: number[], std: number, ids: string): string {
    if (!this.quantize) return this.op('Gather', [this.weight(name, dims, std), ids], { axis: 0 });
    const w = this.gaussian(
      dims.reduce((a, b) => a * b, 1),
      std,
    );
    let max = 0;
    for (const v of w) max = Math.max(max, Math.abs(v));
    const scale = max / 127 || 1;
    this.others.push(
      int8Tensor(
        `${name}_q`,
        dims,
        Int8Array.from(w, (v) => Math.max(-127, Math.min(127, Math.round(v / scale)))),
      ),
    );
    this.others.push(int8Tensor(`${name}_zp`, [], Int8Array.of(0)));
    const rows = this.op('Gather', [`${name}_q`, ids], { axis: 0 });
    return this.op('DequantizeLinear', [rows, this.constant(`${name}_scale`, [], [scale]), `${name}_zp`]);
  }

  layerNorm(x: string, name: string, hidden: number): string {
    const gamma = this.constant(`${name}.weight`, [hidden], new Array(hidden).fill(1));
    const beta = this.constant(`${name}.bias`, [hidden], new Array(hidden).fill(0));
    return this.op('LayerNormalization', [x, gamma, beta], { axis: -1, epsilon: { float: 1e-12 } });
  }

  initializers(): OnnxTensor[] {
    return [...[...this.floats].map(([name, { dims, data }]) => floatTensor(name, dims, data)), ...this.others];
  }
}

interface Shape {
  hidden: number;
  layers: number;
  heads: number;
  intermediate: number;
  vocabSize: number;
  maxPositions: number;
}

function buildGraph(shape: Shape, seed: number, quantize: boolean): OnnxModel {
  const { hidden, layers, heads, intermediate, vocabSize, maxPositions } = shape;
  if (hidden % heads !== 0) throw new Error(`hidden size ${hidden} is not a multiple of ${heads} heads`);
  const headDim = hidden / heads;
  const g = new GraphBuilder(seed, quantize);

  // Embeddings: word + position + token type, then LayerNorm.
  const words = g.embedding('embeddings.word', [vocabSize, hidden], 1, 'input_ids');
  const inputShape = g.op('Shape', ['input_ids']);
  const seqLen = g.op('Gather', [inputShape, g.int64('const.one_index', [], [1])], { axis: 0 });
  const positionIds = g.op('Range', [g.int64('const.zero', [], [0]), seqLen, g.int64('const.one', [], [1])]);
  const positions = g.op('Gather', [g.weight('embeddings.position', [maxPositions, hidden], 0.5), positionIds], {
    axis: 0,
  });
  const types = g.op('Gather', [g.weight('embeddings.token_type', [2, hidden], 0.5), 'token_type_ids'], { axis: 0 });
  let x = g.layerNorm(g.op('Add', [g.op('Add', [words, positions]), types]), 'embeddings.norm', hidden);

  // Attention bias: 0 where attention_mask is 1, -10000 where it is 0; shape [batch, 1, 1, seq].
  const mask = g.op('Cast', ['attention_mask'], { to: DataType.FLOAT });
  const inverted = g.op('Sub', [g.constant('const.one_f', [], [1]), mask]);
  const bias = g.op('Mul', [inverted, g.constant('const.neg_large', [], [-10000])]);
  const maskBias = g.op('Unsqueeze', [bias, g.int64('const.axes_1_2', [2], [1, 2])]);

  const splitHeads = g.int64('const.split_heads', [4], [0, 0, heads, headDim]);
  const mergeHeads = g.int64('const.merge_heads', [3], [0, 0, hidden]);
  const scale = g.constant('const.attention_scale', [], [1 / Math.sqrt(headDim)]);
  const geluScale = g.constant('const.gelu_scale', [], [1.702]);

  for (let l = 0; l < layers; l++) {
    const p = `layer.${l}`;
    const heads4 = (t: string, perm: number[]): string =>
      g.op('Transpose', [g.op('Reshape', [t, splitHeads])], { perm });
    const q = heads4(g.linear(x, `${p}.attention.query`, hidden, hidden), [0, 2, 1, 3]);
    const k = heads4(g.linear(x, `${p}.attention.key`, hidden, hidden), [0, 2, 3, 1]);
    const v = heads4(g.linear(x, `${p}.attention.value`, hidden, hidden), [0, 2, 1, 3]);
    const scores = g.op('Add', [g.op('Mul', [g.op('MatMul', [q, k]), scale]), maskBias]);
    const probs = g.op('Softmax', [scores], { axis: -1 });
    const context = g.op('Reshape', [
      g.op('Transpose', [g.op('MatMul', [probs, v])], { perm: [0, 2, 1, 3] }),
      mergeHeads,
    ]);
    const attention = g.linear(context, `${p}.attention.output`, hidden, hidden);
    x = g.layerNorm(g.op('Add', [x, attention]), `${p}.attention.norm`, hidden);

    const up = g.linear(x, `${p}.intermediate`, hidden, intermediate);
    const gelu = g.op('Mul', [up, g.op('Sigmoid', [g.op('Mul', [up, geluScale])])]);
    const down = g.linear(gelu, `${p}.output`, intermediate, hidden);
    x = g.layerNorm(g.op('Add', [x, down]), `${p}.output.norm`, hidden);
  }
  g.op('Identity', [x], undefined, 'last_hidden_state');

  const tokens = (name: string) => ({ name, dataType: DataType.INT64, shape: ['batch_size', 'sequence_length'] });
  return {
    graphName: 'lore-random-bert',
    nodes: g.nodes,
    initializers: g.initializers(),
    inputs: [tokens('input_ids'), tokens('attention_mask'), tokens('token_type_ids')],
    outputs: [
      { name: 'last_hidden_state', dataType: DataType.FLOAT, shape: ['batch_size', 'sequence_length', hidden] },
    ],
    opset: 17,
  };
}

/** Writes the model folder `dir/name` and returns where it is. Deterministic for a given seed. */
export function makeTinyModel(dir: string, options: TinyModelOptions = {}): TinyModel {
  const o = options;
  const name = o.name ?? 'tiny-bert';
  const vocab = buildVocabulary(o.vocabSize);
  const hidden = o.hidden ?? 32;
  const shape: Shape = {
    hidden,
    layers: o.layers ?? 2,
    heads: o.heads ?? 4,
    intermediate: o.intermediate ?? hidden * 2,
    vocabSize: vocab.length,
    maxPositions: o.maxPositions ?? 512,
  };
  const seed = o.seed ?? 1;
  const path = join(dir, name);
  mkdirSync(join(path, 'onnx'), { recursive: true });
  const files: string[] = [];
  const write = (file: string, data: string | Uint8Array): void => {
    writeFileSync(join(path, file), data);
    files.push(join(path, file));
  };
  const json = (value: unknown): string => JSON.stringify(value, null, 2) + '\n';

  write(
    'config.json',
    json({
      model_type: 'bert',
      architectures: ['BertModel'],
      hidden_size: shape.hidden,
      num_hidden_layers: shape.layers,
      num_attention_heads: shape.heads,
      intermediate_size: shape.intermediate,
      hidden_act: 'gelu',
      max_position_embeddings: shape.maxPositions,
      type_vocab_size: 2,
      vocab_size: shape.vocabSize,
      pad_token_id: 0,
      layer_norm_eps: 1e-12,
      lore_generated: { seed, note: 'random weights: vectors differ by input but carry no meaning' },
    }),
  );
  write('tokenizer.json', json(tokenizerJson(vocab)));
  write('tokenizer_config.json', json(tokenizerConfigJson(shape.maxPositions)));
  for (const dtype of o.dtypes ?? ['fp32']) {
    const file = dtype === 'q8' ? 'onnx/model_quantized.onnx' : 'onnx/model.onnx';
    write(file, encodeModel(buildGraph(shape, seed, dtype === 'q8')));
  }
  return { dir, name, path, hidden: shape.hidden, vocabSize: shape.vocabSize, files };
}

function main(argv: string[]): void {
  const args = [...argv];
  const dir = args.shift();
  if (!dir || dir.startsWith('--')) {
    console.error(
      'usage: npx tsx scripts/makeTinyModel.ts <dir> [--preset ' +
        'tiny|minilm] [--name NAME] [--seed N] [--hidden N] [--layers N] ' +
        '[--heads N] [--intermediate N] [--vocab N] [--q8] [--fp32]',
    );
    process.exit(2);
  }
  let options: TinyModelOptions = {};
  const dtypes: TinyModelDtype[] = [];
  const numbers: Record<string, keyof TinyModelOptions> = {
    '--seed': 'seed',
    '--hidden': 'hidden',
    '--layers': 'layers',
    '--heads': 'heads',
    '--intermediate': 'intermediate',
    '--vocab': 'vocabSize',
  };
  while (args.length > 0) {
    const flag = args.shift()!;
    if (flag === '--preset') {
      const preset = args.shift() as keyof typeof PRESETS;
      if (!PRESETS[preset]) throw new Error(`unknown preset ${preset}`);
      options = { ...options, ...PRESETS[preset] };
    } else if (flag === '--name') options.name = args.shift();
    else if (flag === '--q8') dtypes.push('q8');
    else if (flag === '--fp32') dtypes.push('fp32');
    else if (numbers[flag]) (options as Record<string, number>)[numbers[flag]] = Number(args.shift());
    else throw new Error(`unknown option ${flag}`);
  }
  if (dtypes.length > 0) options.dtypes = dtypes;
  const started = Date.now();
  const model = makeTinyModel(dir, options);
  console.log(
    `wrote ${model.path} (hidden ${model.hidden}, vocabulary ${model.vocabSize}) in ${Date.now() - started} ms`,
  );
  for (const f of model.files) console.log(`  ${f}`);
}

if (require.main === module) main(process.argv.slice(2));

// A minimal ONNX writer: just enough of protobuf and of onnx.proto to serialise an inference
// graph (nodes, float/int initialisers, typed inputs and outputs). No Python, no dependency.
//
// Field numbers follow onnx/onnx.proto (ModelProto, GraphProto, NodeProto, AttributeProto,
// TensorProto, ValueInfoProto, TypeProto, TensorShapeProto, OperatorSetIdProto).

/** ONNX TensorProto.DataType values used here. */
export const DataType = { FLOAT: 1, UINT8: 2, INT8: 3, INT32: 6, INT64: 7 } as const;

const enum Wire {
  Varint = 0,
  LengthDelimited = 2,
  Fixed32 = 5,
}

/** Appends protobuf fields to a list of byte chunks; `bytes()` joins them. */
class ProtoWriter {
  private readonly chunks: Uint8Array[] = [];
  private length = 0;

  private push(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  private varint(value: bigint): void {
    // Negative int64 values are encoded as their 64-bit two's complement (10 bytes).
    let v = BigInt.asUintN(64, value);
    const out: number[] = [];
    while (v >= 0x80n) {
      out.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    out.push(Number(v));
    this.push(Uint8Array.from(out));
  }

  private tag(field: number, wire: Wire): void {
    this.varint(BigInt((field << 3) | wire));
  }

  int(field: number, value: number | bigint): this {
    this.tag(field, Wire.Varint);
    this.varint(BigInt(value));
    return this;
  }

  float(field: number, value: number): this {
    this.tag(field, Wire.Fixed32);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, value, true);
    this.push(b);
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, Wire.LengthDelimited);
    this.varint(BigInt(value.length));
    this.push(value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  message(field: number, build: (w: ProtoWriter) => void): this {
    const inner = new ProtoWriter();
    build(inner);
    return this.bytes(field, inner.finish());
  }

  finish(): Uint8Array {
    if (this.chunks.length === 1) return this.chunks[0];
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}

export type AttributeValue = number | number[] | string | { float: number } | { floats: number[] };

export interface OnnxNode {
  op: string;
  inputs: string[];
  outputs: string[];
  name?: string;
  /** Integers (and integer lists) are INT/INTS; `{ float }` and `{ floats }` are FLOAT/FLOATS. */
  attributes?: Record<string, AttributeValue>;
  domain?: string;
}

export interface OnnxTensor {
  name: string;
  dataType: number;
  dims: number[];
  /** Little-endian element bytes (raw_data). */
  raw: Uint8Array;
}

export interface OnnxValueInfo {
  name: string;
  dataType: number;
  /** A number is a fixed size; a string is a symbolic dimension such as "batch". */
  shape: Array<number | string>;
}

export interface OnnxModel {
  graphName: string;
  nodes: OnnxNode[];
  initializers: OnnxTensor[];
  inputs: OnnxValueInfo[];
  outputs: OnnxValueInfo[];
  opset: number;
  irVersion?: number;
  producer?: string;
}

const enum AttrType {
  FLOAT = 1,
  INT = 2,
  STRING = 3,
  FLOATS = 6,
  INTS = 7,
}

function writeAttribute(w: ProtoWriter, name: string, value: AttributeValue): void {
  w.string(1, name);
  if (typeof value === 'number') {
    w.int(3, value).int(20, AttrType.INT);
  } else if (typeof value === 'string') {
    w.string(4, value).int(20, AttrType.STRING);
  } else if (Array.isArray(value)) {
    for (const v of value) w.int(8, v);
    w.int(20, AttrType.INTS);
  } else if ('float' in value) {
    w.float(2, value.float).int(20, AttrType.FLOAT);
  } else {
    for (const v of value.floats) w.float(7, v);
    w.int(20, AttrType.FLOATS);
  }
}

function writeValueInfo(w: ProtoWriter, info: OnnxValueInfo): void {
  w.string(1, info.name);
  w.message(2, (type) =>
    type.message(1, (tensor) => {
      tensor.int(1, info.dataType);
      tensor.message(2, (shape) => {
        for (const d of info.shape) {
          shape.message(1, (dim) => (typeof d === 'number' ? dim.int(1, d) : dim.string(2, d)));
        }
      });
    }),
  );
}

function writeTensor(w: ProtoWriter, t: OnnxTensor): void {
  for (const d of t.dims) w.int(1, d);
  w.int(2, t.dataType);
  w.string(8, t.name);
  w.bytes(9, t.raw);
}

/** Serialises a model to ONNX protobuf bytes. */
export function encodeModel(model: OnnxModel): Uint8Array {
  const w = new ProtoWriter();
  w.int(1, model.irVersion ?? 8);
  w.string(2, model.producer ?? 'lore-onnx-writer');
  w.message(7, (g) => {
    model.nodes.forEach((n, i) =>
      g.message(1, (node) => {
        for (const input of n.inputs) node.string(1, input);
        for (const output of n.outputs) node.string(2, output);
        node.string(3, n.name ?? `${n.op}_${i}`);
        node.string(4, n.op);
        for (const [name, value] of Object.entries(n.attributes ?? {}))
          node.message(5, (a) => writeAttribute(a, name, value));
        if (n.domain) node.string(7, n.domain);
      }),
    );
    g.string(2, model.graphName);
    for (const t of model.initializers) g.message(5, (tensor) => writeTensor(tensor, t));
    for (const v of model.inputs) g.message(11, (info) => writeValueInfo(info, v));
    for (const v of model.outputs) g.message(12, (info) => writeValueInfo(info, v));
  });
  w.message(8, (o) => o.string(1, '').int(2, model.opset));
  return w.finish();
}

/** Tensor helpers: element bytes in ONNX's little-endian layout. */
export function floatTensor(name: string, dims: number[], data: Float32Array): OnnxTensor {
  return { name, dataType: DataType.FLOAT, dims, raw: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

export function int64Tensor(name: string, dims: number[], data: number[]): OnnxTensor {
  const a = BigInt64Array.from(data.map((v) => BigInt(v)));
  return { name, dataType: DataType.INT64, dims, raw: new Uint8Array(a.buffer) };
}

export function int8Tensor(name: string, dims: number[], data: Int8Array): OnnxTensor {
  return { name, dataType: DataType.INT8, dims, raw: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

// Messages between TransformersEmbedder (the caller's thread) and embedWorker (its worker_thread).
// Each request carries one batch; a call keeps at most two in flight, so cancellation happens
// between batches on the caller's side. The worker runs them in arrival order.

export type BackendChoice = 'auto' | 'native' | 'wasm';
export type Backend = 'native' | 'wasm';

export interface WorkerInit {
  /** transformers.js env.localModelPath: the folder that holds `<modelName>/`. */
  modelRoot: string;
  /** Model id, the folder under modelRoot (e.g. "Xenova/all-MiniLM-L6-v2"). */
  modelName: string;
  /** transformers.js dtype: "fp32" reads onnx/model.onnx, "q8" onnx/model_quantized.onnx. */
  dtype: string;
  /** ONNX Runtime intra-op threads (native) or WASM threads. */
  threads: number;
  backend: BackendChoice;
  /** Module to load as the native backend; tests pass a missing one to exercise the WASM fallback. */
  nativeModule: string;
  /** The ONNX file the dtype selects. */
  modelFile: string;
  /** Sequence cap in tokens; longer texts are split into windows of this size, never cut off. */
  maxTokens: number;
  /** The caller embeds a question or two and exits: weights are not prepacked for speed (see embedWorker). */
  oneShot?: boolean;
}

export type WorkerRequest = { type: 'embed'; id: number; texts: string[] };

export type WorkerMessage =
  | {
      type: 'ready';
      dims: number;
      backend: Backend;
      /** Why the preferred backend was not used, when it was not. */
      fallbackReason?: string;
      /** The sequence cap in use (the one asked for, within the model's positions). */
      maxTokens: number;
      /** The ONNX Runtime session options the pipeline was created with. */
      sessionOptions: Record<string, unknown>;
      loadMs: number;
    }
  | { type: 'failed'; message: string }
  | { type: 'embedded'; id: number; dims: number; vectors: Float32Array }
  | { type: 'error'; id: number; message: string };

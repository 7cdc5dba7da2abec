// Fetches an embedding model once into Lore's models folder, the only network access Lore makes,
// and only when a person asked for it (`lore model download`, the editor's download prompt).
// Files land in a temporary folder beside the target and are renamed into place when every one
// arrived, so an interrupted or failed download leaves nothing that looks like a model.

import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { LoreError } from '../../engine';
import { DEFAULT_MODEL, isModelName, modelsDir, onnxFileName, REQUIRED_FILES, type ModelDtype } from './modelFiles';

export const DEFAULT_MODEL_HOST = 'https://huggingface.co';

export interface ModelDownloadRequest {
  /** Model id in Hugging Face form (org/name). */
  model?: string;
  dtype: ModelDtype;
  /** Lore's data directory; the model goes to `<dataDir>/models/<model>`. */
  dataDir: string;
  /** Base URL serving `<model>/resolve/<revision>/<file>` (Hugging Face layout). */
  host?: string;
  revision?: string;
  signal?: AbortSignal;
  onProgress?: (progress: ModelDownloadProgress) => void;
}

export interface ModelDownloadProgress {
  file: string;
  /** 1-based position of `file` among the files. */
  index: number;
  files: number;
  received: number;
  /** From content-length; null when the server did not say. */
  size: number | null;
}

export interface ModelDownloadResult {
  model: string;
  folder: string;
  files: string[];
  bytes: number;
}

/** The files a transformers.js feature-extraction model needs, for one dtype. */
export function modelFileList(dtype: ModelDtype): string[] {
  return [...REQUIRED_FILES, onnxFileName(dtype)];
}

export async function downloadModel(request: ModelDownloadRequest): Promise<ModelDownloadResult> {
  const model = request.model || DEFAULT_MODEL;
  if (!isModelName(model)) {
    throw new LoreError(
      'INVALID_INPUT',
      `"${model}" is not a model id (org/name of letters, digits, "-", "_", ".")`,
      'pass a Hugging Face model id such as Xenova/all-MiniLM-L6-v2',
    );
  }
  const host = (request.host || DEFAULT_MODEL_HOST).replace(/\/+$/, '');
  const revision = request.revision || 'main';
  const folder = join(modelsDir(request.dataDir), model);
  if (existsSync(folder)) {
    throw new LoreError(
      'INVALID_STATE',
      `${folder} already exists`,
      'remove that folder first to download the model again',
    );
  }
  mkdirSync(dirname(folder), { recursive: true, mode: 0o700 });
  const staging = `${folder}.download-${randomBytes(4).toString('hex')}`;
  const files = modelFileList(request.dtype);
  let bytes = 0;
  try {
    for (const [i, file] of files.entries()) {
      const url = `${host}/${model}/resolve/${revision}/${file}`;
      bytes += await fetchFile(
        url,
        join(staging, file),
        (received, size) => request.onProgress?.({ file, index: i + 1, files: files.length, received, size }),
        request.signal,
      );
    }
    renameSync(staging, folder);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  return { model, folder, files, bytes };
}

async function fetchFile(
  url: string,
  target: string,
  onBytes: (received: number, size: number | null) => void,
  signal?: AbortSignal,
): Promise<number> {
  let response: Response;
  try {
    response = await fetch(url, { signal, redirect: 'follow' });
  } catch (error) {
    if (signal?.aborted) throw new LoreError('CANCELLED', 'the model download was cancelled; nothing was kept');
    throw new LoreError(
      'UNAVAILABLE',
      `cannot reach ${url} (${(error as Error).message})`,
      'check the network, or copy the model folder by hand and set LORE_MODEL_DIR',
    );
  }
  if (!response.ok || !response.body) {
    throw new LoreError(
      'UNAVAILABLE',
      `${url} answered HTTP ${response.status}`,
      response.status === 404
        ? 'check the model id and dtype: that file is not published for it'
        : 'try again later, or copy the model folder by hand and set LORE_MODEL_DIR',
    );
  }
  const length = Number(response.headers.get('content-length'));
  const size = Number.isFinite(length) && length > 0 ? length : null;
  mkdirSync(dirname(target), { recursive: true });
  let received = 0;
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
  body.on('data', (chunk: Buffer) => {
    received += chunk.length;
    onBytes(received, size);
  });
  try {
    await pipeline(body, createWriteStream(target, { mode: 0o600 }), { signal });
  } catch (error) {
    if (signal?.aborted) throw new LoreError('CANCELLED', 'the model download was cancelled; nothing was kept');
    throw new LoreError(
      'UNAVAILABLE',
      `the download of ${url} broke off (${(error as Error).message})`,
      'run the command again',
    );
  }
  if (size !== null && received !== size) {
    throw new LoreError('UNAVAILABLE', `${url} sent ${received} of ${size} bytes`, 'run the command again');
  }
  return received;
}

// `lore model status` and `lore model download [--yes]`: where Lore looks for its embedding
// model, and the one consented download that puts the default model there. The download asks on
// an interactive terminal; a script must say --yes. After the files arrive the model is loaded
// once, so "downloaded" means "works here". `lore model import DIR` installs a model folder copied
// from another machine (./modelImport.ts).

import { LoreError } from '../../engine';
import { loreHome } from '../../host/dataDir';
import { embedderSettingsFromEnv } from '../../host/embedSettings';
import { createEmbedder, DEFAULT_DTYPE, DEFAULT_MODEL, isEmbedderUnavailable } from '../../host/embed/createEmbedder';
import { DEFAULT_MODEL_HOST, downloadModel, type ModelDownloadProgress } from '../../host/embed/modelDownload';
import { isModelDtype, modelsDir, type ModelDtype } from '../../host/embed/modelFiles';
import type { Command } from '../command';
import { UsageError } from '../parse';
import { importModel } from './modelImport';

interface ModelStatus {
  ok: boolean;
  model: string;
  folder?: string;
  dtype?: string;
  reason?: string;
  loaded?: { model_id: string; dims: number; backend: string; threads: number | null };
}

/** Loads the model the environment points at, once, and reports what happened. */
async function probe(home: string): Promise<ModelStatus> {
  const settings = embedderSettingsFromEnv(home);
  const model = settings?.modelName ?? DEFAULT_MODEL;
  if (!settings) return { ok: false, model, reason: 'embeddings are turned off (LORE_EMBED=off)' };
  const embedder = await createEmbedder(settings);
  if (isEmbedderUnavailable(embedder)) return { ok: false, model, reason: embedder.reason };
  // createEmbedder located the model; its location comes with it.
  const where = (embedder as { model?: { folder: string; dtype: string } }).model ?? {
    folder: undefined,
    dtype: undefined,
  };
  try {
    await embedder.embed(['lore model check']);
    // The threads the worker handed ONNX Runtime, as it reports them back.
    const runtime = embedder as { backend?: string; sessionOptions?: { intraOpNumThreads?: number } };
    return {
      ok: true,
      model,
      folder: where.folder,
      dtype: where.dtype,
      loaded: {
        model_id: embedder.modelId,
        dims: embedder.dims,
        backend: runtime.backend ?? 'unknown',
        threads: runtime.sessionOptions?.intraOpNumThreads ?? null,
      },
    };
  } finally {
    await embedder.close();
  }
}

function renderStatus(s: ModelStatus): string {
  if (!s.ok) return `model ${s.model}: not usable — ${s.reason}`;
  return (
    `model ${s.model} (${s.dtype}) loads from ${s.folder}: ` +
    `${s.loaded!.dims} dimensions, ${s.loaded!.backend} runtime, ` +
    `${s.loaded!.threads ?? '?'} thread(s)`
  );
}

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

function progressLine(p: ModelDownloadProgress): string {
  const amount = p.size ? `${megabytes(p.received)} / ${megabytes(p.size)}` : megabytes(p.received);
  return `[${p.index}/${p.files}] ${p.file} ${amount}`;
}

export const modelCommand: Command = {
  name: 'model',
  summary: 'show which embedding model Lore uses, or download the default one (asks first)',
  usage:
    'lore model status | lore model download [--yes] [--model ID] ' +
    '[--dtype q8|fp32|…] | lore model import DIR [--name ID] ' +
    '[--replace]',
  options: {
    yes: { type: 'boolean', short: 'y' },
    model: { type: 'string' },
    dtype: { type: 'string' },
    name: { type: 'string' },
    replace: { type: 'boolean' },
  },
  positionals: { min: 1, max: 2, names: 'status | download | import DIR' },
  async run(ctx, v, [sub, dir]) {
    const home = loreHome();
    if (sub === 'import') {
      if (!dir)
        throw new UsageError(
          'lore model import needs the model folder',
          'lore model import DIR (the folder holding config.json, tokenizer.json, onnx/…)',
        );
      const result = await importModel(home, dir, {
        name: typeof v.name === 'string' ? v.name : undefined,
        replace: v.replace === true,
      });
      const check = result.used_by_default ? await probe(home) : undefined;
      ctx.print({ ...result, check }, (r) =>
        [
          `imported ${r.model} (${r.dims} dimensions, loads) into ${r.folder}`,
          r.used_by_default ? renderStatus(r.check!) : `to use it, set LORE_MODEL=${r.model}`,
          'run `lore index` to embed the workspace',
        ].join('\n'),
      );
      return check && !check.ok ? 1 : 0;
    }
    if (dir !== undefined)
      throw new UsageError(`lore model ${sub} got unexpected argument(s): ${dir}`, `usage: ${modelCommand.usage}`);
    if (sub === 'status') {
      if (v.yes || v.model || v.dtype)
        throw new UsageError(
          'lore model status takes no options',
          'set LORE_MODEL_DIR / LORE_MODEL / LORE_MODEL_DTYPE to choose the model',
        );
      const status = await probe(home);
      ctx.print(status, renderStatus);
      return status.ok ? 0 : 1;
    }
    if (sub !== 'download')
      throw new UsageError(`unknown model command "${sub}"`, 'use: lore model status, or lore model download [--yes]');
    const model = typeof v.model === 'string' ? v.model : DEFAULT_MODEL;
    const dtypeText = typeof v.dtype === 'string' ? v.dtype : DEFAULT_DTYPE;
    if (!isModelDtype(dtypeText))
      throw new UsageError(
        `--dtype ${dtypeText} is not a known ONNX variant`,
        'use q8 (default), fp32, fp16, int8, uint8, q4, q4f16 or bnb4',
      );
    const dtype: ModelDtype = dtypeText;
    const host = process.env.LORE_MODEL_HOST || DEFAULT_MODEL_HOST;
    const target = modelsDir(home);
    if (!v.yes) {
      if (!ctx.interactive) {
        throw new UsageError(
          `downloading ${model} from ${host} needs your consent`,
          'run it in a terminal to be asked, or pass --yes',
        );
      }
      const answer = await ctx.ask(
        `Download the embedding model ${model} (${dtype}) from ${host} ` +
          `into ${target}? It is fetched once (about 23 MB for the default ` +
          `model) and used only on this machine. [y/N] `,
      );
      if (!/^y(es)?$/i.test(answer.trim())) {
        ctx.print({ downloaded: false, model }, () => 'not downloaded; recall stays lexical-only');
        return 1;
      }
    }
    const controller = new AbortController();
    const stop = () => controller.abort();
    process.once('SIGINT', stop);
    const live = !ctx.json && process.stderr.isTTY;
    let lastFile = '';
    try {
      const result = await downloadModel({
        model,
        dtype,
        dataDir: home,
        host,
        signal: controller.signal,
        onProgress: (p) => {
          if (live) process.stderr.write(`\r${progressLine(p)}`.padEnd(72));
          else if (p.file !== lastFile && !ctx.json) process.stderr.write(`fetching ${p.file}\n`);
          lastFile = p.file;
        },
      });
      if (live) process.stderr.write('\r'.padEnd(73) + '\r');
      // Load what arrived with the settings a later `lore index` will use for this model.
      const check = await probe(home).catch(
        (error: Error) => ({ ok: false, model, reason: error.message }) as ModelStatus,
      );
      const usedByDefault = (process.env.LORE_MODEL || DEFAULT_MODEL) === model && !process.env.LORE_MODEL_DIR;
      ctx.print({ downloaded: true, ...result, check, used_by_default: usedByDefault }, (r) =>
        [
          `downloaded ${r.model} (${megabytes(r.bytes)}) into ${r.folder}`,
          usedByDefault
            ? renderStatus(r.check)
            : `to use it, set LORE_MODEL=${r.model} (and LORE_MODEL_DTYPE=${dtype} unless it is q8 with a q8 file)`,
          usedByDefault && r.check.ok ? 'run `lore index` to embed the workspace' : '',
        ]
          .filter(Boolean)
          .join('\n'),
      );
      if (usedByDefault && !check.ok)
        throw new LoreError(
          'INVALID_STATE',
          `the downloaded model does not load: ${check.reason}`,
          `remove ${result.folder} and try again`,
        );
      return 0;
    } finally {
      process.removeListener('SIGINT', stop);
    }
  },
};

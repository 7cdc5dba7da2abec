// Embedding settings for processes started from a shell (CLI, `lore mcp`, `lore serve`): read
// once from the environment and turned into an Embedder for an open store, or into the reason
// there is none (recall then stays lexical and status says why).
//
//   LORE_MODEL_DIR       a folder holding <model>/ (default: <LORE_HOME>/models)
//   LORE_MODEL           model id under it (default Xenova/all-MiniLM-L6-v2)
//   LORE_MODEL_DTYPE     which ONNX file (q8 default for the default model, else fp32 when absent)
//   LORE_EMBED_THREADS   ONNX threads (default auto: cores − 1, at most 4; 1 on a busy machine)
//   LORE_EMBED_MAX_TOKENS  sequence cap (default 256); longer chunks are embedded as several windows
//   LORE_EMBED=off       no embeddings at all
//   LORE_EMBED_URL       an OpenAI-compatible /v1/embeddings endpoint instead of a local model,
//   LORE_EMBED_MODEL     with the model it serves, and its bearer token from
//   LORE_EMBED_TOKEN_FILE  a file (preferred) or LORE_EMBED_TOKEN; the token is never stored

import type { Embedder, EmbedderUnavailable, Engine, Logger } from '../engine';
import { createEmbedder, isEmbedderUnavailable, type EmbedderSettings } from './embed/createEmbedder';
import type { ModelDtype, ModelSettingNames } from './embed/modelFiles';
import { DeferredEmbedder } from './embed/deferredEmbedder';
import { transformersModelId } from './embed/transformersEmbedder';
import { EMBEDDING_OFF, OWNER_SETTINGS as OWNER } from './ownerSettings';

/** What the reasons call the settings, so a person sees the variable to change. */
export const ENV_SETTING_NAMES: ModelSettingNames = {
  modelDir: OWNER.modelDir.env,
  modelName: OWNER.model.env,
  dtype: 'LORE_MODEL_DTYPE',
};

/** Values of LORE_EMBED_THREADS already warned about: a long-lived process says it once. */
const warnedThreads = new Set<string>();

/** LORE_EMBED_THREADS: a whole number from 1, or auto (the default); anything else is auto, said once in the log. */
export function threadsFromEnv(value: string | undefined, logger?: Logger): number | 'auto' {
  const text = value?.trim();
  if (!text || text === 'auto') return 'auto';
  const n = Number(text);
  if (Number.isInteger(n) && n > 0) return n;
  if (logger && !warnedThreads.has(text)) {
    warnedThreads.add(text);
    logger.warn(
      `LORE_EMBED_THREADS="${text}" is not a thread count: set it to a whole number from 1, or to auto ` +
        `(the default: cores − 1, at most 4); using auto`,
    );
  }
  return 'auto';
}

export function embedderSettingsFromEnv(
  home: string,
  env: NodeJS.ProcessEnv = process.env,
  logger?: Logger,
): EmbedderSettings | null {
  if (env[OWNER.embeddingEnabled.env] === EMBEDDING_OFF) return null;
  const maxTokens = env.LORE_EMBED_MAX_TOKENS ? Number(env.LORE_EMBED_MAX_TOKENS) : NaN;
  const url = env[OWNER.endpointUrl.env];
  if (url) {
    return {
      provider: 'endpoint',
      endpoint: {
        url,
        model: env[OWNER.endpointModel.env] ?? '',
        tokenFile: env[OWNER.endpointTokenFile.env] || undefined,
        token: env.LORE_EMBED_TOKEN || undefined,
        urlSetting: OWNER.endpointUrl.env,
        tokenFileSetting: OWNER.endpointTokenFile.env,
      },
    };
  }
  return {
    dataDir: home,
    modelDir: env[OWNER.modelDir.env] || undefined,
    modelName: env[OWNER.model.env] || undefined,
    dtype: (env.LORE_MODEL_DTYPE || undefined) as ModelDtype | undefined,
    settingNames: ENV_SETTING_NAMES,
    threads: threadsFromEnv(env[OWNER.threads.env], logger),
    maxTokens: Number.isInteger(maxTokens) && maxTokens >= 8 ? maxTokens : undefined,
  };
}

/** Loads the model for `engine`; returns a function that releases it (and its worker). */
export async function attachEmbedder(engine: Engine, home: string, logger: Logger): Promise<() => Promise<void>> {
  return startEmbedder(home, logger).attach(engine);
}

export interface StartedEmbedder {
  /**
   * Gives `engine` the model; returns the function that releases it. Waits for the load, unless
   * it was started `late` and is a local model whose id is known without loading it.
   */
  attach(engine: Engine): Promise<() => Promise<void>>;
  /** Releases a model that was never attached. */
  release(): Promise<void>;
}

/**
 * Starts loading the model from the environment's settings now (a `late` one when it is first
 * used), to attach it to an engine later.
 */
export function startEmbedder(home: string, logger: Logger, options: { late?: boolean } = {}): StartedEmbedder {
  const settings = embedderSettingsFromEnv(home, process.env, logger);
  if (!settings)
    return {
      attach: async (engine) => {
        engine.useEmbedder(undefined, 'embeddings are turned off (LORE_EMBED=off)');
        return async () => {};
      },
      release: async () => {},
    };
  // Started late = a one-shot recall: it embeds its question and exits, so the model runs on its
  // thread (no worker to start) and loads only when the question is embedded.
  const oneShot = options.late === true && settings.provider !== 'endpoint';
  let loading: Promise<Embedder | EmbedderUnavailable> | undefined;
  const load = () => {
    loading ??= createEmbedder({ ...settings, logger, oneShot });
    loading.catch(() => {}); // awaited by attach, embed or release
    return loading;
  };
  if (!oneShot) void load();
  const release = async () => {
    const loaded = await loading?.catch(() => undefined);
    if (loaded && !isEmbedderUnavailable(loaded)) await loaded.close();
  };
  const knownId = oneShot ? transformersModelId(settings) : undefined;
  return {
    release,
    async attach(engine) {
      const modelId = await knownId?.catch(() => undefined);
      if (modelId) {
        engine.useEmbedder(new DeferredEmbedder(modelId, load));
        return release;
      }
      const embedder = await load();
      if (isEmbedderUnavailable(embedder)) {
        engine.useEmbedder(undefined, embedder.reason);
        return async () => {};
      }
      engine.useEmbedder(embedder);
      return release;
    },
  };
}

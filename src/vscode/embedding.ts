// The embedding model for a store this extension host owns, from the `lore.embedding.*` settings
// (the CLI reads LORE_MODEL… instead), or an embeddings endpoint from lore.embedding.endpoint.* or
// LORE_EMBED_URL. Loads in the background; recall is lexical until it is ready.

import type { Logger } from '../engine';
import { createEmbedder, isEmbedderUnavailable, type EmbedderSettings } from '../host/embed/createEmbedder';
import { embedderSettingsFromEnv } from '../host/embedSettings';
import type { OpenStore } from '../host/openStore';
import type { LoreSettings } from './settings';
import { editorWording } from './editorWording';

/** The endpoint from the settings' names, or from the environment the editor was started with (as the CLI reads it). */
function endpointFromEnv(): NonNullable<EmbedderSettings['endpoint']> | null {
  const env = embedderSettingsFromEnv('', process.env);
  return env?.provider === 'endpoint' && env.endpoint ? env.endpoint : null;
}

/** The endpoint the editor embeds with instead of a local model: the settings', else the environment's. */
export function editorEndpoint(settings: LoreSettings): NonNullable<EmbedderSettings['endpoint']> | null {
  const configured = settings.embedding.endpoint;
  if (!configured) return endpointFromEnv();
  return {
    url: configured.url,
    model: configured.model,
    tokenFile: configured.tokenFile ?? undefined,
    token: process.env.LORE_EMBED_TOKEN || undefined,
    urlSetting: 'the lore.embedding.endpoint.url setting',
    tokenFileSetting: 'the lore.embedding.endpoint.tokenFile setting',
  };
}

const SETTING_NAMES = { modelDir: 'the lore.embedding.modelDir setting', modelName: 'the lore.embedding.model setting', dtype: 'the model dtype' };

export function embedderFromSettings(settings: LoreSettings, logger: Logger): (store: OpenStore) => Promise<() => Promise<void>> {
  return async (store) => {
    if (!settings.embedding.enabled) {
      store.engine.useEmbedder(undefined, 'embeddings are turned off (lore.embedding.enabled)');
      return async () => {};
    }
    const endpoint = editorEndpoint(settings);
    const embedder = await createEmbedder({
      ...(endpoint ? { provider: 'endpoint' as const, endpoint } : {}),
      dataDir: store.paths.home,
      modelDir: settings.embedding.modelDir ?? undefined,
      modelName: settings.embedding.model ?? undefined,
      threads: settings.embedding.threads,
      settingNames: SETTING_NAMES,
      logger,
    });
    if (isEmbedderUnavailable(embedder)) {
      logger.warn(`recall is lexical-only: ${editorWording(embedder.reason)}`);
      store.engine.useEmbedder(undefined, embedder.reason);
      return async () => {};
    }
    store.engine.useEmbedder(embedder);
    logger.info(`embedding model ${embedder.modelId} loaded`);
    return () => embedder.close();
  };
}

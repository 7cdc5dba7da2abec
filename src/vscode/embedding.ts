// The embedding model for a store this extension host owns, from the `lore.embedding.*` settings
// (the CLI reads LORE_MODEL… instead). Loads in the background; recall is lexical until it is ready.

import type { Logger } from '../engine';
import { createEmbedder, isEmbedderUnavailable } from '../host/embed/createEmbedder';
import type { OpenStore } from '../host/openStore';
import type { LoreSettings } from './settings';

const SETTING_NAMES = { modelDir: 'the lore.embedding.modelDir setting', modelName: 'the lore.embedding.model setting', dtype: 'the model dtype' };

export function embedderFromSettings(settings: LoreSettings, logger: Logger): (store: OpenStore) => Promise<() => Promise<void>> {
  return async (store) => {
    if (!settings.embedding.enabled) {
      store.engine.useEmbedder(undefined, 'embeddings are turned off (lore.embedding.enabled)');
      return async () => {};
    }
    const embedder = await createEmbedder({
      dataDir: store.paths.home,
      modelDir: settings.embedding.modelDir ?? undefined,
      modelName: settings.embedding.model ?? undefined,
      threads: settings.embedding.threads,
      settingNames: SETTING_NAMES,
      logger,
    });
    if (isEmbedderUnavailable(embedder)) {
      logger.warn(`recall is lexical-only: ${embedder.reason}`);
      store.engine.useEmbedder(undefined, embedder.reason);
      return async () => {};
    }
    store.engine.useEmbedder(embedder);
    logger.info(`embedding model ${embedder.modelId} loaded`);
    return () => embedder.close();
  };
}

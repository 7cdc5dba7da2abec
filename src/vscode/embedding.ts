// The environment of the `lore serve` process the editor starts for a folder: the data dir and the
// `lore.store.url` and `lore.embedding.*` settings said the way that process reads them (LORE_HOME, LORE_MODEL…; see
// host/embedSettings.ts), so the store's owner loads the model the settings name. What the editor
// was started with (LORE_EMBED_URL, LORE_EMBED_TOKEN…) passes through unless a setting says otherwise.

import { EMBEDDING_OFF, OWNER_SETTINGS as OWNER } from '../host/ownerSettings';
import type { LoreSettings } from './settings';

/** Variables the settings decide; an unset setting removes an inherited value only where it must. */
export function ownerEnv(settings: LoreSettings, home: string, base = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, [OWNER.dataDir.env]: home };
  // The shared store, as the CLI reads it; without the setting, a LORE_STORE the editor was started with passes.
  if (settings.store.url) env[OWNER.storeUrl.env] = settings.store.url;
  const embedding = settings.embedding;
  if (!embedding.enabled) return { ...env, [OWNER.embeddingEnabled.env]: EMBEDDING_OFF };
  delete env[OWNER.embeddingEnabled.env];
  env[OWNER.threads.env] = String(embedding.threads);
  if (embedding.modelDir) env[OWNER.modelDir.env] = embedding.modelDir;
  if (embedding.model) env[OWNER.model.env] = embedding.model;
  const endpoint = embedding.endpoint;
  if (endpoint) {
    env[OWNER.endpointUrl.env] = endpoint.url;
    env[OWNER.endpointModel.env] = endpoint.model;
    if (endpoint.tokenFile) env[OWNER.endpointTokenFile.env] = endpoint.tokenFile;
  }
  return env;
}

/**
 * Whether the owner embeds through an endpoint (a setting, or LORE_EMBED_URL the editor started with), not a local
 * model.
 */
export function endpointConfigured(settings: LoreSettings, base = process.env): boolean {
  return Boolean(ownerEnv(settings, '', base)[OWNER.endpointUrl.env]);
}

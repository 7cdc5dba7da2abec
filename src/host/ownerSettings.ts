// The editor↔owner settings, written once: each `lore.*` setting the store's owner process
// (`lore serve`) honours, and the environment variable that carries it there. The editor sets the
// variables from its settings (vscode/embedding.ts) and words an error naming a variable as the
// setting (vscode/editorWording.ts); the owner reads them (host/embedSettings.ts, host/dataDir.ts).

export interface OwnerSetting {
  /** The editor's setting, as package.json contributes it. */
  setting: string;
  /** The variable the owner reads. */
  env: string;
}

export const OWNER_SETTINGS = {
  dataDir: { setting: 'lore.dataDir', env: 'LORE_HOME' },
  /** A shared PostgreSQL store, as the CLI reads it (host/store/storeSetting.ts). */
  storeUrl: { setting: 'lore.store.url', env: 'LORE_STORE' },
  /** Off is said as LORE_EMBED=off. */
  embeddingEnabled: { setting: 'lore.embedding.enabled', env: 'LORE_EMBED' },
  threads: { setting: 'lore.embedding.threads', env: 'LORE_EMBED_THREADS' },
  modelDir: { setting: 'lore.embedding.modelDir', env: 'LORE_MODEL_DIR' },
  model: { setting: 'lore.embedding.model', env: 'LORE_MODEL' },
  endpointUrl: { setting: 'lore.embedding.endpoint.url', env: 'LORE_EMBED_URL' },
  endpointModel: { setting: 'lore.embedding.endpoint.model', env: 'LORE_EMBED_MODEL' },
  endpointTokenFile: { setting: 'lore.embedding.endpoint.tokenFile', env: 'LORE_EMBED_TOKEN_FILE' },
} as const satisfies Record<string, OwnerSetting>;

/** The value of LORE_EMBED that turns embedding off. */
export const EMBEDDING_OFF = 'off';

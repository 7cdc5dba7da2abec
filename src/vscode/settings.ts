// The one reader of Lore's `lore.*` settings: contributes.configuration in package.json → this typed
// shape → the host. Read fresh at each use (per workspace folder), never cached, so a change applies
// at the next indexing run, save or MCP refresh. No `vscode` import: the caller hands in a getter.

import { isAbsolute } from 'node:path';
import { isPostgresUrl } from '../host/store/postgres/connectionSettings';

export type McpTransport = 'http' | 'stdio';

/** An OpenAI-compatible embeddings endpoint instead of the local model (machine settings only). */
export interface EndpointSetting {
  url: string;
  model: string;
  tokenFile: string | null;
}

export interface LoreSettings {
  /** The data directory (LORE_HOME semantics); null → LORE_HOME or the per-user default. */
  dataDir: string | null;
  /** Extra globs, on top of Lore's defaults and the workspace's .lore/config.json. */
  index: { include: string[]; exclude: string[]; onSave: boolean };
  embedding: {
    enabled: boolean;
    model: string | null;
    modelDir: string | null;
    /** 'auto' (the setting's 0, its default): the engine picks (cores − 1, at most 4). */
    threads: number | 'auto';
    endpoint: EndpointSetting | null;
  };
  drift: { onSave: boolean; showAlreadyBroken: boolean };
  /** The lens and hover on code that memories and ADRs are anchored to. */
  codeLens: { enabled: boolean };
  mcp: { enabled: boolean; transport: McpTransport };
  /** A shared PostgreSQL store (postgresql://…) the owner process uses; null → the SQLite file. */
  store: { url: string | null };
}

/** Every key the reader reads, relative to `lore.`; a test holds package.json to the same list. */
export const SETTING_KEYS = [
  'dataDir',
  'index.include',
  'index.exclude',
  'index.onSave',
  'embedding.enabled',
  'embedding.model',
  'embedding.modelDir',
  'embedding.threads',
  'embedding.endpoint.url',
  'embedding.endpoint.model',
  'embedding.endpoint.tokenFile',
  'drift.onSave',
  'drift.showAlreadyBroken',
  'codeLens.enabled',
  'mcp.enabled',
  'mcp.transport',
  'store.url',
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export const MAX_THREADS = 8;

/** `get` returns the effective value of `lore.<key>` (undefined when unset). */
export type SettingGetter = (key: SettingKey) => unknown;

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

function flag(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}

function globs(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((g): g is string => typeof g === 'string' && g.trim() !== '').map((g) => g.trim());
}

function threads(value: unknown): number | 'auto' {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) return 'auto';
  return Math.min(MAX_THREADS, value);
}

/**
 * Reads the settings. Problems a person should fix (a relative data dir) are returned beside the
 * values rather than thrown, so the extension still runs and can say what to change.
 */
export function readSettings(get: SettingGetter): { settings: LoreSettings; problems: string[] } {
  const problems: string[] = [];
  let dataDir = text(get('dataDir'));
  if (dataDir && !isAbsolute(dataDir)) {
    problems.push(`lore.dataDir must be an absolute path; "${dataDir}" is ignored`);
    dataDir = null;
  }
  const transport = get('mcp.transport');
  const endpointUrl = text(get('embedding.endpoint.url'));
  const endpointModel = text(get('embedding.endpoint.model')) ?? '';
  const tokenFile = text(get('embedding.endpoint.tokenFile'));
  const endpoint = endpointUrl ? { url: endpointUrl, model: endpointModel, tokenFile } : null;
  let storeUrl = text(get('store.url'));
  if (storeUrl && !isPostgresUrl(storeUrl)) {
    // Only the scheme is named: the value may hold a password.
    const scheme = /^[a-z][a-z0-9+.-]{0,20}:/i.exec(storeUrl)?.[0] ?? storeUrl.slice(0, 1);
    problems.push(
      `lore.store.url is not a postgresql:// URL (it begins "${scheme}"); the SQLite store in the data directory is used`,
    );
    storeUrl = null;
  }
  return {
    settings: {
      dataDir,
      index: {
        include: globs(get('index.include')),
        exclude: globs(get('index.exclude')),
        onSave: flag(get('index.onSave'), true),
      },
      embedding: {
        enabled: flag(get('embedding.enabled'), true),
        model: text(get('embedding.model')),
        modelDir: text(get('embedding.modelDir')),
        threads: threads(get('embedding.threads')),
        endpoint,
      },
      drift: {
        onSave: flag(get('drift.onSave'), true),
        showAlreadyBroken: flag(get('drift.showAlreadyBroken'), true),
      },
      codeLens: { enabled: flag(get('codeLens.enabled'), true) },
      mcp: { enabled: flag(get('mcp.enabled'), true), transport: transport === 'stdio' ? 'stdio' : 'http' },
      store: { url: storeUrl },
    },
    problems,
  };
}

// The MCP server definition provider: tells VS Code's agents where each (trusted) workspace
// folder's Lore serves MCP. Over HTTP it points at the store's owner — the `lore serve` this
// window started, or another Lore process that already owns the store; the store opens, and the bearer token is handed
// over, only when the editor starts the server (resolve), not when it lists servers. Over stdio
// it starts `lore mcp`, which joins the owner itself. The change event fires when an owner comes,
// goes or changes.

import * as vscode from 'vscode';
import { basename, join } from 'node:path';
import type { Logger } from '../engine';
import type { OwnerEndpoint } from './folderStore';
import type { LoreSettings } from './settings';
import type { LoreStores } from './stores';

export const MCP_PROVIDER_ID = 'lore.mcpServers';
/** Before the owner is known the definition carries this; resolve fills in the real one. */
const UNRESOLVED = 'http://127.0.0.1:1/mcp';

export function endpointVersion(owner: OwnerEndpoint | undefined): string {
  return owner ? `${owner.pid}-${new URL(owner.url).port}` : 'pending';
}

export class LoreMcpProvider implements vscode.McpServerDefinitionProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  private readonly owners = new Map<string, OwnerEndpoint>();

  constructor(
    private readonly stores: LoreStores,
    private readonly settingsFor: (folder: string) => LoreSettings,
    private readonly cliPath: string,
    private readonly logger: Logger,
  ) {}

  /** One label per folder, unique: the label is how a definition finds its folder again. */
  private label(folder: string): string {
    const folders = this.stores.folders();
    if (folders.length <= 1) return 'Lore';
    const name = basename(folder);
    const namesakes = folders.filter((f) => basename(f) === name);
    return namesakes.length > 1 ? `Lore (${name} ${namesakes.indexOf(folder) + 1})` : `Lore (${name})`;
  }

  /**
   * The folder a definition is for, from the workspace as it is now (the editor may resolve a definition it cached).
   */
  private folderOf(label: string): string | undefined {
    return this.stores.folders().find((folder) => this.label(folder) === label);
  }

  provideMcpServerDefinitions(): vscode.McpServerDefinition[] {
    const out: vscode.McpServerDefinition[] = [];
    for (const folder of this.stores.folders()) {
      const settings = this.settingsFor(folder);
      if (!settings.mcp.enabled) continue;
      if (settings.mcp.transport === 'stdio') {
        // The extension host's own Node (Electron run as Node) runs the bundled CLI.
        const env: Record<string, string> = { ELECTRON_RUN_AS_NODE: '1' };
        if (settings.dataDir) env.LORE_HOME = settings.dataDir;
        const def = new vscode.McpStdioServerDefinition(
          this.label(folder),
          process.execPath,
          [this.cliPath, '--workspace', folder, 'mcp'],
          env,
        );
        def.cwd = vscode.Uri.file(folder);
        out.push(def);
        continue;
      }
      // No token here: the editor may keep listed definitions (to show servers before activation);
      // the bearer token is added only in resolve, when a server starts.
      const owner = this.owners.get(folder);
      out.push(
        new vscode.McpHttpServerDefinition(
          this.label(folder),
          vscode.Uri.parse(owner ? `${owner.url}/mcp` : UNRESOLVED),
          {},
          endpointVersion(owner),
        ),
      );
    }
    return out;
  }

  async resolveMcpServerDefinition(
    server: vscode.McpServerDefinition,
  ): Promise<vscode.McpServerDefinition | undefined> {
    const folder = this.folderOf(server.label);
    // Restricted Mode, a folder no longer open, or Lore's MCP turned off: nothing starts, whatever
    // definition the editor kept from before.
    if (!folder || !this.settingsFor(folder).mcp.enabled) return undefined;
    if (!(server instanceof vscode.McpHttpServerDefinition) && !('uri' in server)) return server;
    const owner = await this.stores.get(folder).owner();
    this.owners.set(folder, owner);
    const http = server as vscode.McpHttpServerDefinition;
    http.uri = vscode.Uri.parse(`${owner.url}/mcp`);
    // The MCP token opens /mcp only; the owner's full token (for /rpc) never leaves Lore.
    http.headers = { ...http.headers, Authorization: `Bearer ${owner.mcpToken}` };
    this.logger.info(
      `MCP: agents use ${owner.url}/mcp ` +
        `(${owner.self ? `served by this window's lore serve, pid ${owner.pid}` : `owner pid ${owner.pid}`}) ` +
        `for ${folder}`,
    );
    return http;
  }

  /** Re-reads the owners of the opened stores; fires the change event when one differs. */
  async ownersChanged(): Promise<void> {
    let differs = false;
    const open = new Set(this.stores.opened().map((s) => s.folder));
    for (const folder of [...this.owners.keys()]) {
      if (!open.has(folder)) {
        this.owners.delete(folder);
        differs = true;
      }
    }
    for (const store of this.stores.opened()) {
      try {
        const owner = await store.owner();
        if (
          endpointVersion(this.owners.get(store.folder)) !== endpointVersion(owner) ||
          this.owners.get(store.folder)?.token !== owner.token
        ) {
          this.owners.set(store.folder, owner);
          differs = true;
        }
      } catch (error) {
        this.logger.debug(`MCP: owner of ${store.folder} unknown: ${(error as Error).message}`);
      }
    }
    if (differs) this.changed.fire();
  }

  /** Settings, folders or trust changed: the list itself may differ. */
  refresh(): void {
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function cliPathOf(extensionPath: string): string {
  return join(extensionPath, 'dist', 'cli.js');
}

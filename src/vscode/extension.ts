// The VS Code door. For now it only sets up Lore's log channel; views, commands, drift
// diagnostics and the MCP server definition arrive with the extension issue. Activation does no
// I/O: the store opens on first use.

import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Lore', { log: true });
  context.subscriptions.push(log);
  context.subscriptions.push(vscode.commands.registerCommand('lore.showLog', () => log.show()));
  log.info('Lore activated');
}

export function deactivate(): void {}

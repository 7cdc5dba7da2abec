// The VS Code door's entry: creates the log, wires the parts (wire.ts) and, if that fails, says so
// with "Show Log" instead of leaving a half-working sidebar. Activation does no I/O: the store
// opens on first use.

import * as vscode from 'vscode';
import { wire, type Wired } from './wire';

let wired: Wired | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Lore', { log: true });
  context.subscriptions.push(log);
  context.subscriptions.push(vscode.commands.registerCommand('lore.showLog', () => log.show()));
  try {
    wired = wire(context, log);
    log.info('Lore activated');
  } catch (error) {
    log.error(`Lore failed to start: ${(error as Error).stack ?? error}`);
    void vscode.window
      .showErrorMessage(`Lore failed to start: ${(error as Error).message}`, 'Show Log')
      .then((choice) => choice && log.show());
  }
}

export async function deactivate(): Promise<void> {
  await wired?.shutdown();
  wired = undefined;
}

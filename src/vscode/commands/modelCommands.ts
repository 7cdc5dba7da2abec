// Lore: Download Embedding Model — the editor's door to the one consented network fetch (the
// CLI's is `lore model download`): asks in a modal, shows progress with Cancel, keeps nothing on
// failure, then reopens the stores so the model is used at once.

import * as vscode from 'vscode';
import { DEFAULT_DTYPE, DEFAULT_MODEL } from '../../host/embed/createEmbedder';
import { DEFAULT_MODEL_HOST, downloadModel } from '../../host/embed/modelDownload';
import { modelsDir } from '../../host/embed/modelFiles';
import { loreHome } from '../../host/dataDir';
import { homeFor, type LoreStores } from '../stores';
import type { LoreSettings } from '../settings';
import type { CommandDeps } from './deps';
import { required } from './ui';

export const DOWNLOAD_MODEL_COMMAND = 'lore.downloadModel';

export function registerModelCommands(
  deps: CommandDeps,
  settingsFor: (folder: string) => LoreSettings,
  stores: LoreStores,
): void {
  deps.register(DOWNLOAD_MODEL_COMMAND, async () => {
    if (!vscode.workspace.isTrusted)
      throw new Error('Lore downloads nothing in Restricted Mode: trust this workspace first');
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath;
    const settings = folder ? settingsFor(folder) : undefined;
    if (settings?.embedding.modelDir) {
      throw new Error(
        `lore.embedding.modelDir points at ` +
          `${settings.embedding.modelDir}: Lore uses that folder and ` +
          `downloads nothing; clear the setting to use a downloaded model`,
      );
    }
    const model = settings?.embedding.model ?? DEFAULT_MODEL;
    const home = settings ? homeFor(settings) : loreHome();
    const host = process.env.LORE_MODEL_HOST || DEFAULT_MODEL_HOST;
    required(
      await vscode.window.showInformationMessage(
        `Download the embedding model ${model}?`,
        {
          modal: true,
          detail:
            `Lore fetches it once from ${host} (about 23 MB for the default ` +
            `model) into ${modelsDir(home)} and uses it only on this machine, ` +
            `to rank recall by meaning. Nothing else is sent or fetched.`,
        },
        'Download',
      ),
    );
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Lore: downloading ${model}`, cancellable: true },
      async (progress, token) => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort());
        let reported = 0;
        return downloadModel({
          model,
          dtype: DEFAULT_DTYPE,
          dataDir: home,
          host,
          signal: controller.signal,
          onProgress: (p) => {
            // Each file is an equal share of the bar; within a file, bytes move it when the size is known.
            const share = 100 / p.files;
            const at = (p.index - 1) * share + (p.size ? (p.received / p.size) * share : 0);
            progress.report({
              message: `${p.file} (${(p.received / 1e6).toFixed(1)} MB)`,
              increment: Math.max(0, at - reported),
            });
            reported = Math.max(reported, at);
          },
        });
      },
    );
    deps.log.info(`downloaded ${result.model} (${result.bytes} bytes) into ${result.folder}`);
    await stores.reconcile('embedding model downloaded', true);
    vscode.window
      .showInformationMessage(
        `Lore downloaded ${result.model}; recall now ranks by meaning too. Reindex to embed the workspace.`,
        'Reindex',
      )
      .then((choice) => {
        if (choice) void vscode.commands.executeCommand('lore.reindex');
      });
  });
}

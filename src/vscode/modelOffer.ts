// The first index's offer of the one-time model download: made once per machine, only when
// nothing else would give recall a model (no model setting, no downloaded or bundled model), with
// what it costs; whatever the person answers (or dismissing it) is remembered and never asked again.
// Yes opens Lore: Download Embedding Model, which asks once more in its modal with the details.

import * as vscode from 'vscode';
import { modelWithoutSettings } from '../host/embed/bundledModel';
import { DEFAULT_MODEL } from '../host/embed/modelFiles';
import { DOWNLOAD_MODEL_COMMAND } from './commands/modelCommands';
import type { LoreSettings } from './settings';

export const MODEL_OFFER_KEY = 'lore.modelOffer';
const DOWNLOAD = 'Download…';
const DECLINE = 'No thanks';

/** Whether the offer applies: embeddings on, no model in settings, none downloaded or bundled, never answered. */
function shouldOfferModel(settings: LoreSettings, home: string, answered: unknown): boolean {
  if (answered !== undefined || !settings.embedding.enabled) return false;
  if (settings.embedding.modelDir || settings.embedding.model) return false;
  return !modelWithoutSettings(home);
}

export async function offerModelOnce(memento: vscode.Memento, settings: LoreSettings, home: string): Promise<void> {
  if (!shouldOfferModel(settings, home, memento.get(MODEL_OFFER_KEY))) return;
  // Remembered before asking: a second window opening meanwhile does not ask again.
  await memento.update(MODEL_OFFER_KEY, 'asked');
  const choice = await vscode.window.showInformationMessage(
    `Lore indexed this workspace for word matches only. Download the embedding model ${DEFAULT_MODEL} once ` +
      '(about 23 MB, kept on this machine, nothing else is sent) so recall also ranks by meaning?',
    DOWNLOAD,
    DECLINE,
  );
  await memento.update(MODEL_OFFER_KEY, choice === DOWNLOAD ? 'accepted' : 'declined');
  if (choice === DOWNLOAD) await vscode.commands.executeCommand(DOWNLOAD_MODEL_COMMAND);
}

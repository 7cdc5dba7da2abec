// The first index's offer of the one-time model download: made once per machine, after the first
// index this window ran, only when nothing else would give recall a model (no model setting, no
// embeddings endpoint, no downloaded or bundled model), with what it costs; whatever the person
// answers (or dismissing it) is remembered and never asked again. Each decision is one log line.
// Yes opens Lore: Download Embedding Model, which asks once more in its modal with the details.

import * as vscode from 'vscode';
import type { Logger } from '../engine';
import { modelWithoutSettings } from '../host/embed/bundledModel';
import { DEFAULT_MODEL } from '../host/embed/modelFiles';
import { DOWNLOAD_MODEL_COMMAND } from './commands/modelCommands';
import { endpointConfigured } from './embedding';
import type { LoreSettings } from './settings';

export const MODEL_OFFER_KEY = 'lore.modelOffer';
export const OFFER_DOWNLOAD = 'Download…';
export const OFFER_DECLINE = 'No thanks';

/** Why the offer is not made (undefined: it is): answered before, or recall has or was given a model. */
export function offerSkipped(settings: LoreSettings, home: string, answered: unknown): string | undefined {
  if (answered !== undefined) return `answered before (${String(answered)})`;
  if (!settings.embedding.enabled) return 'embeddings are turned off (lore.embedding.enabled)';
  const { model, modelDir } = settings.embedding;
  if (model || modelDir) return 'a model is set (lore.embedding.model or modelDir)';
  if (endpointConfigured(settings)) return 'an embeddings endpoint is set';
  if (modelWithoutSettings(home)) return 'a model is downloaded or bundled';
  return undefined;
}

export async function offerModelOnce(
  memento: vscode.Memento,
  settings: LoreSettings,
  home: string,
  log: Pick<Logger, 'info'>,
): Promise<void> {
  const skipped = offerSkipped(settings, home, memento.get(MODEL_OFFER_KEY));
  if (skipped) {
    log.info(`model download not offered: ${skipped}`);
    return;
  }
  // Remembered before asking (the memento's value changes at once, then is stored): a second
  // folder or window indexing meanwhile does not ask again.
  await memento.update(MODEL_OFFER_KEY, 'asked');
  log.info('offering the one-time model download');
  const choice = await vscode.window.showInformationMessage(
    `Lore indexed this workspace for word matches only. Download the embedding model ${DEFAULT_MODEL} once ` +
      '(about 23 MB, kept on this machine, nothing else is sent) so recall also ranks by meaning?',
    OFFER_DOWNLOAD,
    OFFER_DECLINE,
  );
  const answer = choice === OFFER_DOWNLOAD ? 'accepted' : choice === OFFER_DECLINE ? 'declined' : 'dismissed';
  await memento.update(MODEL_OFFER_KEY, answer);
  log.info(`model download offer ${answer}`);
  if (choice === OFFER_DOWNLOAD) await vscode.commands.executeCommand(DOWNLOAD_MODEL_COMMAND);
}

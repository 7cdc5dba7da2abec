// `lore model import DIR`: installs a model folder copied from another machine into
// <LORE_HOME>/models/<name>. The copy lands beside its target first and is loaded there (one
// embedding); only a copy that loads is renamed into place, so a broken folder never replaces a
// working model and nothing half-copied is left behind.

import { cpSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { LoreError } from '../../engine';
import { createEmbedder, DEFAULT_MODEL, isEmbedderUnavailable } from '../../host/embed/createEmbedder';
import { isModelName, locateModel, modelsDir } from '../../host/embed/modelFiles';
import { UsageError } from '../parse';

export interface ModelImportResult {
  imported: true;
  model: string;
  folder: string;
  dims: number;
  model_id: string;
  used_by_default: boolean;
}

/** The id a folder is installed under: --name, else its folder name (the default model keeps its org). */
function modelName(dir: string, name?: string): string {
  const chosen = name ?? (basename(dir) === basename(DEFAULT_MODEL) ? DEFAULT_MODEL : basename(dir));
  if (!isModelName(chosen)) {
    throw new UsageError(
      `"${chosen}" is not a model id Lore accepts (letters, digits, "-", "_", ".", one "/")`,
      'pass --name ID',
    );
  }
  return chosen;
}

export async function importModel(
  home: string,
  dirArg: string,
  options: { name?: string; replace?: boolean },
): Promise<ModelImportResult> {
  const dir = resolve(dirArg);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new UsageError(
      `${dir} is not a folder`,
      'give the model folder (config.json, tokenizer.json, tokenizer_config.json, onnx/…)',
    );
  }
  const names = { modelDir: 'DIR', modelName: '--name', dtype: 'LORE_MODEL_DTYPE' };
  const found = locateModel({ modelDir: dir, settingNames: names });
  if ('reason' in found) {
    throw new UsageError(
      found.reason.replace(/ Recall stays lexical-only until then\.$/, ''),
      'copy the whole model folder from the other machine',
    );
  }
  const name = modelName(dir, options.name);
  const target = join(modelsDir(home), name);
  if (existsSync(target) && !options.replace) {
    throw new UsageError(`${name} is already installed in ${target}`, 'pass --replace to install this copy instead');
  }
  const staging = `${target}.importing-${process.pid}`;
  mkdirSync(dirname(target), { recursive: true });
  rmSync(staging, { recursive: true, force: true });
  try {
    cpSync(dir, staging, { recursive: true });
    const embedder = await createEmbedder({ modelDir: staging, settingNames: names });
    if (isEmbedderUnavailable(embedder)) {
      throw new LoreError(
        'INVALID_INPUT',
        `the model in ${dir} does not load: ${embedder.reason}`,
        'copy the complete model folder again',
      );
    }
    let dims: number;
    let modelId: string;
    try {
      const [vector] = await embedder.embed(['lore model import check']);
      dims = vector.length;
      modelId = embedder.modelId.replace(basename(staging), name);
    } finally {
      await embedder.close();
    }
    if (existsSync(target)) rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
    const usedByDefault = (process.env.LORE_MODEL || DEFAULT_MODEL) === name && !process.env.LORE_MODEL_DIR;
    return { imported: true, model: name, folder: target, dims, model_id: modelId, used_by_default: usedByDefault };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

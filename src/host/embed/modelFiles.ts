// Where an embedding model's files are, checked before any worker starts, so a missing model is
// a plain reason (lexical-only recall) rather than an error from deep inside transformers.js.
//
// Layout (transformers.js, env.localModelPath = root): <root>/<name>/config.json,
// tokenizer.json, tokenizer_config.json and onnx/model<suffix>.onnx, where the suffix follows
// the dtype: fp32 "", q8 "_quantized", fp16 "_fp16", ...

import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { EmbedderUnavailable } from '../../engine/embed/embedder';
import { loreHome } from '../dataDir';

export const DEFAULT_MODEL = 'Xenova/all-MiniLM-L6-v2';
export const DEFAULT_DTYPE = 'q8';

const DTYPE_SUFFIX = {
  fp32: '',
  fp16: '_fp16',
  q8: '_quantized',
  int8: '_int8',
  uint8: '_uint8',
  q4: '_q4',
  q4f16: '_q4f16',
  bnb4: '_bnb4',
} as const;

export type ModelDtype = keyof typeof DTYPE_SUFFIX;

/** transformers.js treats names that are not Hugging Face-style ids as paths; Lore keeps to ids. */
const MODEL_NAME = /^([\w\-.]+\/)?[\w\-.]{1,96}$/;
export function isModelName(name: string): boolean {
  return MODEL_NAME.test(name) && !name.includes('..');
}

/** What a model folder holds besides its ONNX file. */
export const REQUIRED_FILES: readonly string[] = ['config.json', 'tokenizer.json', 'tokenizer_config.json'];

export interface ModelSource {
  /** A folder holding `<modelName>/`, or the model folder itself when modelName is not given. */
  modelDir?: string;
  /** Model id: the folder (or org/folder) under modelDir. Default Xenova/all-MiniLM-L6-v2. */
  modelName?: string;
  /** Lore's data directory; without modelDir the model is looked for in `<dataDir>/models/`. */
  dataDir?: string;
  /** Which ONNX file to use; default q8 when onnx/model_quantized.onnx exists, else fp32. */
  dtype?: ModelDtype;
  /** What the person calls these settings where they set them (env vars, editor settings), for the reasons. */
  settingNames?: ModelSettingNames;
}

export interface ModelSettingNames {
  modelDir: string;
  modelName: string;
  dtype: string;
}

const OPTION_NAMES: ModelSettingNames = { modelDir: 'modelDir', modelName: 'modelName', dtype: 'dtype' };

export interface ModelLocation {
  /** transformers.js env.localModelPath. */
  root: string;
  name: string;
  folder: string;
  dtype: ModelDtype;
  /** The ONNX file the dtype selects. */
  file: string;
}

/** The folder where Lore keeps downloaded models: `<data dir>/models`. */
export function modelsDir(dataDir: string = loreHome()): string {
  return join(dataDir, 'models');
}

/** The ONNX file a dtype selects, relative to the model folder, with '/' (as the hub serves it). */
export function onnxFileName(dtype: ModelDtype): string {
  return `onnx/model${DTYPE_SUFFIX[dtype]}.onnx`;
}

export function onnxFile(folder: string, dtype: ModelDtype): string {
  return join(folder, onnxFileName(dtype));
}

export function isModelDtype(value: string): value is ModelDtype {
  return Object.prototype.hasOwnProperty.call(DTYPE_SUFFIX, value);
}

const isDir = (path: string): boolean => existsSync(path) && statSync(path).isDirectory();

/** Finds the model's files, or says why there is no model and what to do about it. */
export function locateModel(source: ModelSource): ModelLocation | EmbedderUnavailable {
  const names = source.settingNames ?? OPTION_NAMES;
  if (source.dtype !== undefined && !isModelDtype(source.dtype)) {
    return {
      reason:
        `Embedding dtype "${source.dtype}" is not one of ` +
        `${Object.keys(DTYPE_SUFFIX).join(', ')}: fix ${names.dtype}.`,
    };
  }
  let root: string;
  let name: string;
  const configured = source.modelDir !== undefined && source.modelDir !== '';
  if (configured) {
    const dir = resolve(source.modelDir!);
    if (!isDir(dir)) {
      return {
        reason:
          `The local model folder ${dir} does not exist: point ` +
          `${names.modelDir} at a folder that holds a model (config.json, ` +
          `tokenizer.json, tokenizer_config.json, onnx/model.onnx). Recall ` +
          `stays lexical-only until then.`,
      };
    }
    if (source.modelName) {
      root = dir;
      name = source.modelName;
    } else {
      root = dirname(dir);
      name = basename(dir);
    }
  } else {
    root = modelsDir(source.dataDir);
    name = source.modelName || DEFAULT_MODEL;
  }
  if (!isModelName(name)) {
    return {
      reason:
        `The model name "${name}" is not a folder name transformers.js ` +
        `accepts (letters, digits, "-", "_", ".", at most one "/"): ` +
        `rename the folder or set ${names.modelName}.`,
    };
  }
  const folder = join(root, name);
  const isDefault = !configured && name === DEFAULT_MODEL;
  if (!isDir(folder)) {
    return {
      reason: isDefault
        ? `The embedding model ${DEFAULT_MODEL} (q8) is not in ${root}: ` +
          `recall is lexical-only. Run "lore model download" to fetch it ` +
          `once (it asks first; about 23 MB), copy it there yourself ` +
          `(Hugging Face layout: ${DEFAULT_MODEL}/config.json, ` +
          `tokenizer.json, tokenizer_config.json, ` +
          `onnx/model_quantized.onnx), or set ${names.modelDir} (and ` +
          `${names.modelName}) to a local model folder.`
        : `The model folder ${folder} does not exist: set ${names.modelDir} ` +
          `to the folder that holds "${name}/" (or to the model folder ` +
          `itself) and check ${names.modelName}. Recall stays lexical-only ` +
          `until then.`,
    };
  }
  const missing = REQUIRED_FILES.filter((f) => !existsSync(join(folder, f)));
  let dtype: ModelDtype | undefined = source.dtype ?? (isDefault ? DEFAULT_DTYPE : undefined);
  if (dtype === undefined) dtype = existsSync(onnxFile(folder, 'q8')) ? 'q8' : 'fp32';
  const file = onnxFile(folder, dtype);
  if (!existsSync(file)) missing.push(`onnx/${basename(file)}`);
  if (missing.length > 0) {
    return {
      reason:
        `The model folder ${folder} is missing ` +
        `${missing.join(', ')}${source.dtype ? ` (dtype ${dtype})` : ''}: ` +
        `copy the complete model (transformers.js layout) ` +
        `there${source.dtype ? ` or set ${names.dtype} to one whose ONNX file is present` : ''}. ` +
        `Recall stays lexical-only until then.`,
    };
  }
  return { root, name, folder, dtype, file };
}

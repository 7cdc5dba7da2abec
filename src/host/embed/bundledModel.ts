// A model shipped inside the installed package (`npm run package -- --model DIR` puts it in
// dist/models/ beside the bundles, with bundled.json naming it): used when nothing else is
// configured and no downloaded model is present, so an offline install ranks by meaning at once.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_MODEL, isModelName, locateModel, modelsDir, type ModelSource } from './modelFiles';

/** Where a packaged build keeps its model: dist/models, beside the bundle that runs. */
export const BUNDLED_MODELS_DIR = join(__dirname, 'models');
export const BUNDLED_MANIFEST = 'bundled.json';

export function bundledModel(dir: string = BUNDLED_MODELS_DIR): { modelDir: string; modelName: string } | undefined {
  const manifest = join(dir, BUNDLED_MANIFEST);
  if (!existsSync(manifest)) return undefined;
  try {
    const { name } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown };
    return typeof name === 'string' && isModelName(name) ? { modelDir: dir, modelName: name } : undefined;
  } catch {
    return undefined;
  }
}

/** The source to load: the one asked for, unless nothing was asked and only the bundled model is there. */
export function preferBundled<T extends ModelSource>(source: T, dir?: string): T {
  if (source.modelDir || source.modelName) return source;
  if (!('reason' in locateModel(source))) return source;
  const bundled = bundledModel(dir);
  return bundled ? { ...source, ...bundled } : source;
}

/** Whether recall would have a model with no model settings: the default one downloaded, or one bundled. */
export function modelWithoutSettings(home: string, dir?: string): boolean {
  return existsSync(join(modelsDir(home), DEFAULT_MODEL)) || bundledModel(dir) !== undefined;
}

// `npm run package`: builds dist/ and packages the extension as a platform-specific VSIX, offline.
// The bundle is platform-neutral; ONNX Runtime's native binding is not, so each VSIX carries the
// one for its target (default: this machine's), and the WebAssembly build as the fallback. The
// extension's page is docs/extension-readme.md (what a VS Code user does), not the repository's
// README (which starts from a clone). Its links stay relative (the repository URL is a placeholder,
// so there is nothing to rewrite them to).
//
//   npm run package                     → lore-<version>-<platform>-<arch>.vsix for this machine
//   npm run package -- --target win32-x64
//   npm run package -- --target universal (no native binding: ONNX runs on WebAssembly)
//   npm run package -- --model DIR [--model-name ID]
//       bundles the model folder DIR (transformers.js layout) as dist/models/<ID> (default: DIR's
//       folder name); the installed extension and its CLI use it when no other model is set or
//       downloaded, so it ranks by meaning with no download. DIR is loaded once before packaging.

import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { createVSIX } from '@vscode/vsce';

const TARGETS = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64', 'universal'];
const args = process.argv.slice(2);
const at = args.indexOf('--target');
const target = at >= 0 ? args[at + 1] : `${process.platform}-${process.arch}`;
if (!TARGETS.includes(target)) {
  console.error(`unknown target "${target}": use one of ${TARGETS.join(', ')}`);
  process.exit(2);
}

const modelAt = args.indexOf('--model');
const modelDir = modelAt >= 0 ? resolve(args[modelAt + 1] ?? '') : undefined;
const nameAt = args.indexOf('--model-name');
const modelName = nameAt >= 0 ? args[nameAt + 1] : modelDir && basename(modelDir);
const BUNDLED = 'dist/models';
/** The extension's own page in the VSIX (extension/readme.md). */
const EXTENSION_README = 'docs/extension-readme.md';

execFileSync(process.execPath, ['esbuild.mjs'], { stdio: 'inherit' });
rmSync(BUNDLED, { recursive: true, force: true });

const lines = readFileSync('.vscodeignore', 'utf8').split('\n');
if (modelDir) {
  // The CLI just built loads it the way the installed extension will: a folder that does not load is not shipped.
  const home = mkdtempSync(join(tmpdir(), 'lore-vsix-model-'));
  let status;
  try {
    const out = execFileSync(process.execPath, ['dist/cli.js', '--json', 'model', 'status'], {
      env: {
        ...process.env,
        LORE_HOME: home,
        LORE_MODEL_DIR: modelDir,
        LORE_MODEL: '',
        LORE_MODEL_DTYPE: '',
        LORE_EMBED: '',
      },
      encoding: 'utf8',
    });
    status = JSON.parse(out);
  } catch (error) {
    status = JSON.parse(error.stdout || '{}');
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  if (!status.ok) {
    console.error(`--model ${modelDir}: ${status.reason ?? 'the model does not load'}`);
    process.exit(1);
  }
  cpSync(modelDir, join(BUNDLED, modelName), { recursive: true });
  writeFileSync(join(BUNDLED, 'bundled.json'), JSON.stringify({ name: modelName }) + '\n');
  lines.push(`!${BUNDLED}/**`);
  console.log(`bundling the model ${modelName} (${status.loaded.dims} dimensions) from ${modelDir}`);
}
if (target !== 'universal') {
  const [os, arch] = target.split('-');
  const napi = readdirSync('node_modules/onnxruntime-node/bin').filter((d) => d.startsWith('napi-v'));
  const found = napi.filter((d) => existsSync(join('node_modules/onnxruntime-node/bin', d, os, arch)));
  if (!found.length) {
    console.error(
      `onnxruntime-node has no native binding for ${target} in node_modules; package --target universal instead`,
    );
    process.exit(1);
  }
  for (const d of found) lines.push(`!node_modules/onnxruntime-node/bin/${d}/${os}/${arch}/**`);
}
const work = mkdtempSync(join(tmpdir(), 'lore-vsix-'));
const ignoreFile = join(work, 'vscodeignore');
writeFileSync(ignoreFile, lines.join('\n') + '\n');

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const packagePath = `lore-${version}${target === 'universal' ? '' : `-${target}`}.vsix`;
try {
  await createVSIX({
    cwd: process.cwd(),
    packagePath,
    ignoreFile,
    target: target === 'universal' ? undefined : target,
    dependencies: true,
    readmePath: EXTENSION_README,
    rewriteRelativeLinks: false,
  });
} finally {
  rmSync(work, { recursive: true, force: true });
  // dist/ is also what tests and `npm link` run: it must not keep the packaged model.
  rmSync(BUNDLED, { recursive: true, force: true });
}
console.log(`${packagePath}: ${(statSync(packagePath).size / 1024 / 1024).toFixed(1)} MiB`);

// The packaged extension with a bundled model, in a real editor (`npm run test:vsix`): packages a
// VSIX with `--model` (the generated tiny model), installs it into code-server like a person would
// (--install-extension), opens a workspace in headless Chromium, and checks that the installed
// extension's own store owner embeds with the bundled model while LORE_HOME holds no model and
// nothing can be downloaded. The CLI that asks is the repository's (no bundled model of its own),
// so the vectors it reports were made by the extension host. Prints "N passed, N failed".

import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { makeTinyModel } from '../../scripts/makeTinyModel';
import { storePaths } from '../../src/host/dataDir';
import { findLiveOwner } from '../../src/host/owner';
import { launchChromium, readToolPaths, startCodeServer, type CodeServer } from './codeServer';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist/cli.js');
const WAIT_MS = Number(process.env.LORE_EDITOR_TIMEOUT_MS ?? 180_000);
const results: Array<{ name: string; error?: string }> = [];
function check(name: string, ok: boolean, detail: string): void {
  results.push(ok ? { name } : { name, error: detail });
  console.log(`${ok ? '  ✔' : '  ✘'} ${name}${ok ? '' : `\n      ${detail}`}`);
}

/** Waits for `probe` to yield a value, up to the deadline; the editor's start-up time is not asserted. */
async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${WAIT_MS} ms`);
    await delay(250);
  }
}

async function main(): Promise<number> {
  const tools = readToolPaths();
  const scratch = mkdtempSync(join(tmpdir(), 'lore-vsix-'));
  const home = join(scratch, 'lore-home');
  const workspace = join(scratch, 'workspace');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(
    join(workspace, 'README.md'),
    '# Deploying\n\nRun `make deploy` from a clean checkout; it tags the release.\n',
  );
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LORE_HOME: home,
    LORE_MODEL_HOST: 'http://127.0.0.1:9',
    XDG_CONFIG_HOME: join(scratch, 'xdg'),
    XDG_DATA_HOME: join(scratch, 'xdg'),
  };
  delete env.LORE_MODEL_DIR;
  delete env.LORE_MODEL;
  let server: CodeServer | undefined;
  try {
    const model = makeTinyModel(join(scratch, 'model'), { name: 'tiny-bert', dtypes: ['q8'] });
    const packaged = execFileSync(process.execPath, ['scripts/packageVsix.mjs', '--model', model.path], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const vsixName = /^(lore-\S+\.vsix): /m.exec(packaged)?.[1];
    if (!vsixName) throw new Error(`no VSIX in the packager's output:\n${packaged}`);
    const vsix = join(scratch, vsixName);
    renameSync(join(ROOT, vsixName), vsix);
    check(
      'the packager leaves no model in dist/',
      !existsSync(join(ROOT, 'dist/models')),
      'dist/models is still there',
    );

    const extensions = join(scratch, 'extensions');
    const userDataDir = join(scratch, 'user-data');
    execFileSync(
      tools.node,
      [tools.codeServer, '--extensions-dir', extensions, '--user-data-dir', userDataDir, '--install-extension', vsix],
      { env, encoding: 'utf8' },
    );
    const installed = readdirSync(extensions).find((d) => d.startsWith('lore-dev.lore-'));
    const bundled = installed && join(extensions, installed, 'dist/models/bundled.json');
    check(
      'code-server installs the VSIX with its bundled model',
      !!bundled && existsSync(bundled),
      `installed: ${readdirSync(extensions).join(', ')}`,
    );
    // The extension's page (the Extensions view shows the installed readme) starts with what a VS Code
    // user does, not with a clone's `npm ci` (issue 25).
    const readme = installed
      ? readdirSync(join(extensions, installed)).find((f) => /^readme\.md$/i.test(f))
      : undefined;
    const page = readme ? readFileSync(join(extensions, installed!, readme), 'utf8') : '';
    const opening = page.split('\n## ').slice(0, 2).join('\n## ');
    check(
      "the extension's page starts with what a VS Code user does (no npm, no node dist/cli.js)",
      /Install the extension/.test(opening) && !/\bnpm\b|node dist|npx/.test(page),
      `readme: ${readme ?? 'none'}; opening: ${opening.slice(0, 200)}`,
    );
    // The installed CLI (what the extension's MCP server definition runs) has every script of the build and starts.
    const scripts = readdirSync(join(ROOT, 'dist')).filter((f) => f.endsWith('.js'));
    const missing = installed ? scripts.filter((f) => !existsSync(join(extensions, installed, 'dist', f))) : scripts;
    const installedCli = installed ? join(extensions, installed, 'dist/cli.js') : '';
    const version =
      installed && !missing.length
        ? execFileSync(process.execPath, [installedCli, '--version'], { env, encoding: 'utf8' }).trim()
        : '';
    check(
      'the installed CLI has every script of dist/ (cliMain.js, mcpSdk.js) and starts',
      !missing.length && version === JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version,
      `missing: ${missing.join(', ') || 'none'}; --version: ${version}`,
    );

    // The store exists (one record, saved by the CLI), so the extension opens it as owner at start-up.
    execFileSync(
      process.execPath,
      [
        CLI,
        '--workspace',
        workspace,
        'remember',
        '--type',
        'runbook',
        '--title',
        'Deploy',
        '--description',
        'make deploy from a clean checkout',
      ],
      { env },
    );

    server = startCodeServer(tools, { scratch, userDataDir, extensionsDir: extensions, env });
    const base = await server.url;
    const browser = await launchChromium(tools, join(scratch, 'chromium'), { width: 1200, height: 800 });
    try {
      const page = browser.pages()[0] ?? (await browser.newPage());
      await page.goto(`${base}?folder=${encodeURIComponent(workspace)}`);
      await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: WAIT_MS });
      const paths = storePaths(workspace, home);
      // A person's first index: Lore: Reindex from the command palette (once the extension is up).
      await until('Lore: Reindex to open the store', async () => {
        await page.keyboard.press('F1');
        const input = page.locator('.quick-input-widget .quick-input-box input');
        await input.waitFor({ state: 'visible', timeout: 10_000 });
        await input.fill('>Lore: Reindex');
        const row = page
          .locator('.quick-input-widget .quick-input-list .monaco-list-row')
          .getByText('Lore: Reindex')
          .first();
        try {
          await row.waitFor({ state: 'visible', timeout: 5_000 });
        } catch {
          await input.press('Escape');
          return undefined;
        }
        await input.press('Enter');
        // It asks what to reindex; the first choice (changed files) is a first index's whole workspace.
        await page
          .locator('.quick-input-widget')
          .getByText('Changed files')
          .first()
          .waitFor({ state: 'visible', timeout: 10_000 });
        await input.press('Enter');
        return until('the extension to own the store', async () => (await findLiveOwner(paths.owner)) ?? undefined);
      });
      const status = await until('the first index with vectors', () => {
        const out = execFileSync(process.execPath, [CLI, '--workspace', workspace, '--json', 'index'], {
          env,
          encoding: 'utf8',
        });
        const parsed = JSON.parse(out) as {
          status: { model: string | null; pending: number; model_problem: string | null };
        };
        return parsed.status.model && parsed.status.pending === 0 ? parsed.status : undefined;
      });
      check(
        'the installed extension embeds with the bundled model, no download',
        /^tiny-bert@q8#[0-9a-f]{12}$/.test(status.model ?? ''),
        JSON.stringify(status),
      );
      check('nothing was downloaded into LORE_HOME', !existsSync(join(home, 'models')), 'LORE_HOME/models exists');
      const recall = JSON.parse(
        execFileSync(process.execPath, [CLI, '--workspace', workspace, '--json', 'recall', 'how do I ship a release'], {
          env,
          encoding: 'utf8',
        }),
      );
      check(
        'recall through the extension ranks with vectors',
        recall.vectors === true && recall.results.length > 0,
        JSON.stringify(recall).slice(0, 600),
      );
    } catch (error) {
      await browser
        .pages()[0]
        ?.screenshot({ path: join(scratch, 'failure.png') })
        .catch(() => undefined);
      throw error;
    } finally {
      await browser.close();
    }
  } catch (error) {
    check('the run completed', false, (error as Error).stack ?? String(error));
  } finally {
    server?.stop();
    if (!process.env.LORE_EDITOR_KEEP) rmSync(scratch, { recursive: true, force: true });
  }
  const failed = results.filter((r) => r.error).length;
  console.log(`\n${results.length - failed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);

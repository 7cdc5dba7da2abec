// The editor tier's runner (`npm run test:editor`): builds the extension and the in-host mocha
// suite, seeds a fixture workspace through the real CLI, then runs the suite inside a real editor:
// - a developer's desktop VS Code through @vscode/test-electron when LORE_VSCODE_EXECUTABLE
//   (or --vscode PATH) names one;
// - otherwise code-server (VS Code's server build) on a random loopback port, opened in headless
//   Debian Chromium through playwright-core, which also answers the suite's UI requests (type into
//   a quick input, press a dialog button, read or photograph the sidebar; see ui.ts).
// The tools come from scripts/editor/setup.sh's cache, never from the project's dependencies.
// Prints each test, then "N passed, N failed"; the sidebar screenshot goes to test/editor/artifacts/.
// Knobs: LORE_EDITOR_GREP (run only tests whose title has this text, or one of several separated
// by |; the page scenarios too, e.g. LORE_EDITOR_GREP='Set Kind|Restricted Mode'),
// LORE_EDITOR_VERBOSE (editor and host logs), LORE_EDITOR_KEEP (keep the scratch folder),
// LORE_EDITOR_TIMEOUT_MS (the whole run; 45 minutes), LORE_EDITOR_CACHE.

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { ENV, SEED_FILES, SEED_RECORDS } from './seed';
import { FIGURES_FILE, RESULTS_FILE, writeWhole, type Figure, type SuiteResults } from './bridge';
import { cliRunner, runScenarios } from './scenarios';
import { runOfferScenarios } from './offerScenarios';
import { runRestrictedScenario } from './restrictedScenario';
import { CACHE, HarnessError, launchBrowser, readToolPaths, startCodeServer, type ToolPaths } from './codeServer';
import type { TestElectron } from './tools';
import { serveUiRequests } from './ui';

const ROOT = resolve(__dirname, '../..');
const PAGE_LOAD_MS = 180_000;
const ARTIFACTS = join(ROOT, 'test/editor/artifacts');
const SUITE_OUT = join(ROOT, '.cache/editor/suite.js');
const TIMEOUT_MS = Number(process.env.LORE_EDITOR_TIMEOUT_MS ?? 45 * 60_000);
async function main(): Promise<number> {
  const desktop = vscodeExecutable();
  buildAll();
  const scratch = mkdtempSync(join(tmpdir(), 'lore-editor-'));
  let ok = false;
  try {
    const workspace = seedWorkspace(scratch);
    const bridge = join(scratch, 'bridge');
    mkdirSync(bridge);
    mkdirSync(ARTIFACTS, { recursive: true });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      LORE_HOME: join(scratch, 'lore-home'),
      [ENV.bridge]: bridge,
      [ENV.cli]: join(ROOT, 'dist/cli.js'),
      [ENV.node]: process.execPath,
      // The tier downloads nothing: a download would meet a closed loopback port, never the network.
      LORE_MODEL_HOST: 'http://127.0.0.1:9',
    };
    if (desktop) await runDesktop(desktop, workspace, scratch, env);
    else await runCodeServer(readToolPaths(), workspace, scratch, bridge, { ...env, [ENV.ui]: '1' });
    const results = readResults(bridge);
    ok = report(results);
    printFigures(bridge);
    return ok ? 0 : 1;
  } finally {
    if (process.env.LORE_EDITOR_KEEP || !ok) console.log(`editor: scratch folder kept at ${scratch}`);
    else rmSync(scratch, { recursive: true, force: true });
  }
}

function vscodeExecutable(): string | undefined {
  const flag = process.argv.indexOf('--vscode');
  const path = flag >= 0 ? process.argv[flag + 1] : process.env.LORE_VSCODE_EXECUTABLE;
  if (path !== undefined && !existsSync(path))
    throw new HarnessError(`VS Code executable ${path} does not exist (from --vscode or LORE_VSCODE_EXECUTABLE)`);
  return path;
}

/** dist/ (the extension and the CLI) and the suite bundle the extension host loads. */
function buildAll(): void {
  const built = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new HarnessError('npm run build failed');
}

async function buildSuite(): Promise<void> {
  await build({
    entryPoints: [join(ROOT, 'test/editor/suite/index.ts')],
    outfile: SUITE_OUT,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'inline',
    // vscode is the host's; mocha loads its reporters by path, so it stays a real module.
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
}

/** A copy of the fixture workspace with the seed files, a git root, and the seed records saved by the CLI. */
function seedWorkspace(scratch: string): string {
  const workspace = join(scratch, 'workspace');
  cpSync(join(ROOT, 'test/fixtures/workspace'), workspace, { recursive: true });
  for (const [path, text] of Object.entries(SEED_FILES)) {
    mkdirSync(dirname(join(workspace, path)), { recursive: true });
    writeFileSync(join(workspace, path), text);
  }
  mkdirSync(join(workspace, '.git'));
  const lore = (args: string[]) => {
    const run = spawnSync(process.execPath, [join(ROOT, 'dist/cli.js'), '--workspace', workspace, ...args], {
      env: { ...process.env, LORE_HOME: join(scratch, 'lore-home') },
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new HarnessError(`seeding failed: lore ${args.join(' ')}\n${run.stderr}`);
  };
  for (const record of SEED_RECORDS) {
    lore([
      'remember',
      '--type',
      record.type,
      '--key',
      record.key,
      '--title',
      record.title,
      '--description',
      record.description,
      '--body',
      record.body,
      ...record.anchors.flatMap((anchor) => ['--anchor', anchor]),
    ]);
  }
  // Indexed before the editor opens, so recall's results do not depend on the host's first run.
  lore(['index']);
  return workspace;
}

/** User settings for a quiet, deterministic window: no welcome page, tips or recommendations. */
function writeUserSettings(userDataDir: string, { trust = false } = {}): void {
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  writeFileSync(
    join(userDataDir, 'User/settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'extensions.ignoreRecommendations': true,
        'telemetry.telemetryLevel': 'off',
        'update.mode': 'none',
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'window.restoreWindows': 'none',
        // Off (every folder trusted) except for the Restricted Mode window (restrictedScenario.ts), where a
        // folder never trusted opens restricted without the startup question.
        'security.workspace.trust.enabled': trust,
        'security.workspace.trust.startupPrompt': 'never',
        // The web workbench auto-saves after a second by default (desktop does not): a test's edit could
        // be saved before the step that was to race it, and its own save then answers for nothing.
        // Saves happen where a test makes them.
        'files.autoSave': 'off',
        // The chat panel would take a third of the screenshot; agents reach Lore through MCP regardless.
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
      },
      null,
      2,
    ),
  );
}

// ---- desktop VS Code ----------------------------------------------------------------------------

async function runDesktop(
  executable: string,
  workspace: string,
  scratch: string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  await buildSuite();
  const testElectron = join(CACHE, 'test-electron/node_modules/@vscode/test-electron');
  if (!existsSync(testElectron))
    throw new HarnessError(
      `@vscode/test-electron is not installed at ${testElectron}: run scripts/editor/setup.sh --desktop first`,
    );
  const { runTests } = require(testElectron) as TestElectron;
  const userDataDir = join(scratch, 'user-data');
  writeUserSettings(userDataDir);
  console.log(`editor: desktop VS Code ${executable}`);
  try {
    await runTests({
      vscodeExecutablePath: executable,
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: SUITE_OUT,
      // A fresh extensions folder keeps the developer's own extensions out; built-ins stay on.
      launchArgs: [
        workspace,
        '--user-data-dir',
        userDataDir,
        '--extensions-dir',
        join(scratch, 'extensions'),
        '--disable-workspace-trust',
        '--skip-welcome',
      ],
      extensionTestsEnv: env as Record<string, string>,
    });
  } catch (error) {
    // A failing suite makes runTests reject; the results file still says which tests failed.
    if (!existsSync(join(env[ENV.bridge]!, RESULTS_FILE))) throw error;
  }
}

// ---- code-server in headless Chromium -----------------------------------------------------------

async function runCodeServer(
  tools: ToolPaths,
  workspace: string,
  scratch: string,
  bridge: string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  await buildSuite();
  const userDataDir = join(scratch, 'user-data');
  writeUserSettings(userDataDir);
  const server = startCodeServer(tools, {
    scratch,
    userDataDir,
    extensionsDir: join(scratch, 'extensions'),
    env,
    // A built workbench honours extensionDevelopmentPath/extensionTestsPath from the URL's
    // payload only when the server runs with VS Code's test driver enabled.
    extraArgs: ['--vscode-option', 'enable-smoke-test-driver'],
  });
  const stopServer = server.stop;
  const interrupted = () => {
    stopServer();
    process.exit(130);
  };
  process.once('exit', stopServer);
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    const base = await server.url;
    console.log(`editor: code-server at ${base} (workspace ${workspace})`);
    const browser = await launchBrowser(tools);
    const launch = () => browser.newContext({ viewport: { width: 1400, height: 900 } });
    const context = await launch();
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      // VS Code's web workbench calls these when it runs extension tests: the host's log lines,
      // and its exit code once the suite's run() has settled.
      let resolveExit!: (code: number) => void;
      const exited = new Promise<number>((resolve) => {
        resolveExit = resolve;
      });
      await page.exposeFunction('codeAutomationExit', (code: number) => resolveExit(code));
      await page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => {
        if (process.env.LORE_EDITOR_VERBOSE) console.log(`[host ${type}]`, ...args);
      });
      page.on('pageerror', (error) => console.error(`editor: page error: ${error.message}`));
      if (process.env.LORE_EDITOR_VERBOSE)
        page.on('console', (message) => console.log(`[page ${message.type()}] ${message.text()}`));
      const remote = (path: string) => `vscode-remote://${new URL(base).host}${path}`;
      const payload = JSON.stringify([
        ['extensionDevelopmentPath', remote(ROOT)],
        ['extensionTestsPath', remote(SUITE_OUT)],
        ['skipWelcome', 'true'],
      ]);
      // The page's first load compiles the workbench: on a loaded machine it takes longer than
      // playwright's 30 s default, which is a harness failure, not the extension's.
      await page.goto(`${base}?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(payload)}`, {
        timeout: PAGE_LOAD_MS,
      });
      const ui = serveUiRequests(page, bridge, ARTIFACTS);
      try {
        await raceTimeout(
          Promise.race([exited, server.exited]),
          TIMEOUT_MS,
          `the suite did not finish within ${TIMEOUT_MS / 1000}s`,
        );
      } catch (error) {
        await page.screenshot({ path: join(ARTIFACTS, 'window.png') }).catch(() => undefined);
        throw error;
      } finally {
        ui.stop();
      }
      if (!existsSync(join(bridge, RESULTS_FILE))) {
        await page.screenshot({ path: join(ARTIFACTS, 'window.png') });
        throw new HarnessError(
          `the extension host ended without results (screenshot: ${join(ARTIFACTS, 'window.png')})`,
        );
      }
      // Second window: the extension without a test runner, so modal dialogs show (scenarios.ts).
      await page.close();
      const second = await context.newPage();
      const devPayload = JSON.stringify([
        ['extensionDevelopmentPath', remote(ROOT)],
        ['skipWelcome', 'true'],
      ]);
      await second.goto(`${base}?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(devPayload)}`, {
        timeout: TIMEOUT_MS,
      });
      const scenarios = await runScenarios({
        page: second,
        artifacts: ARTIFACTS,
        lore: cliRunner(process.execPath, join(ROOT, 'dist/cli.js'), workspace, env),
      });
      const offers = await runOfferScenarios({
        reloaded: second,
        freshWindow: async (folder) => {
          const fresh = await launch();
          const page = fresh.pages()[0] ?? (await fresh.newPage());
          await page.goto(`${base}?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(devPayload)}`, {
            timeout: TIMEOUT_MS,
          });
          return { page, close: () => fresh.close() };
        },
        scratch,
        home: env.LORE_HOME!,
        artifacts: ARTIFACTS,
        lore: (folder, args) => cliRunner(process.execPath, join(ROOT, 'dist/cli.js'), folder, env)(args),
      });
      // Last: a server of its own with workspace trust on, whose window on the folder (never trusted)
      // opens in Restricted Mode.
      const restricted = await runRestrictedScenario({
        root: ROOT,
        artifacts: ARTIFACTS,
        openUntrusted: async () => {
          const own = join(scratch, 'restricted');
          mkdirSync(own, { recursive: true });
          const trustData = join(own, 'user-data');
          writeUserSettings(trustData, { trust: true });
          const trusting = startCodeServer(tools, {
            scratch: own,
            userDataDir: trustData,
            extensionsDir: join(own, 'extensions'),
            env,
            trust: true,
            // The payload's extensionDevelopmentPath is honoured only with the test driver enabled.
            extraArgs: ['--vscode-option', 'enable-smoke-test-driver'],
          });
          const window = await launch();
          const page = window.pages()[0] ?? (await window.newPage());
          const at = await trusting.url;
          const payload = JSON.stringify([
            ['extensionDevelopmentPath', `vscode-remote://${new URL(at).host}${ROOT}`],
            ['skipWelcome', 'true'],
          ]);
          await page.goto(`${at}?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(payload)}`, {
            timeout: TIMEOUT_MS,
          });
          return {
            page,
            close: async () => {
              await window.close();
              trusting.stop();
            },
          };
        },
      });
      const results = readResults(bridge);
      writeWhole(bridge, RESULTS_FILE, { tests: [...results.tests, ...scenarios, ...offers, ...restricted] });
    } finally {
      await context.close();
      await browser.close();
    }
  } catch (error) {
    writeFileSync(join(ARTIFACTS, 'code-server.log'), server.log.join(''));
    throw error;
  } finally {
    stopServer();
    process.off('exit', stopServer);
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  }
}

function raceTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HarnessError(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The suite's measurements (figures.json), one line each: they are reported, never asserted. */
function printFigures(bridge: string): void {
  const file = join(bridge, FIGURES_FILE);
  if (!existsSync(file)) return;
  for (const f of JSON.parse(readFileSync(file, 'utf8')) as Figure[]) {
    const b = f.busy;
    const i = f.idle;
    console.log(
      `figure ${f.name}: ${f.label}: p50 ${b.p50} ${f.unit}, p99 ` +
        `${b.p99} ${f.unit}, max ${b.max} ${f.unit} over ${f.seconds} s` +
        ` (idle: p50 ${i.p50}, p99 ${i.p99}, max ${i.max}); extension host CPU ${f.hostCpuSeconds} s;` +
        ` load average ${f.loadAverage.join('→')}`,
    );
  }
}

// ---- results ------------------------------------------------------------------------------------

function readResults(bridge: string): SuiteResults {
  const file = join(bridge, RESULTS_FILE);
  if (!existsSync(file)) throw new HarnessError('the in-host suite wrote no results');
  return JSON.parse(readFileSync(file, 'utf8')) as SuiteResults;
}

function report(results: SuiteResults): boolean {
  for (const test of results.tests) {
    const mark = test.state === 'passed' ? 'ok  ' : test.state === 'failed' ? 'FAIL' : 'skip';
    const took = test.seconds === undefined ? '' : ` (${test.seconds} s)`;
    console.log(
      `  ${mark} ${test.title}${took}${test.error ? `\n         ${test.error.split('\n').join('\n         ')}` : ''}`,
    );
  }
  const sidebar = join(ARTIFACTS, 'sidebar.png');
  if (existsSync(sidebar)) console.log(`editor: sidebar screenshot ${sidebar}`);
  const count = (state: string) => results.tests.filter((t) => t.state === state).length;
  const skipped = count('skipped');
  console.log(`${count('passed')} passed, ${count('failed')} failed${skipped ? `, ${skipped} skipped` : ''}`);
  return count('failed') === 0 && results.tests.length > 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`editor: ${error instanceof HarnessError ? error.message : (error as Error).stack}`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);

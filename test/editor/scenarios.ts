// What the in-host suite cannot do: VS Code refuses modal dialogs while extension tests run
// (its DialogService throws "refused to show dialog in tests"), so a flow that asks a person to
// confirm in a modal — Forget — is driven here instead, in a second window of the same
// code-server with the extension loaded for development but no test runner: keys pressed and
// buttons clicked in the page, the outcome read from the page and from the store through the CLI.

import { execFile } from 'node:child_process';
import { DRIFT_DOC, NEXT_ADR, SEEDED_DEAD_END, SEEDED_DECISION } from './seed';
import { secondsSince, type TestResult } from './bridge';
import type { Page } from './tools';
import { perform } from './ui';

export interface ScenarioContext {
  page: Page;
  artifacts: string;
  /** Runs the built CLI against the seeded workspace; resolves with its exit code and output. */
  lore(args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
}

interface Scenario {
  title: string;
  run(ctx: ScenarioContext): Promise<void>;
}

// Generous and fixed: the machine running the tier is often shared and loaded.
const WAIT_MS = 60_000;
/** A window's first load compiles the workbench and starts the extension host: minutes on a loaded machine. */
const LOAD_MS = 180_000;

/** One named step; a failure says which step it was. */
export async function step<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new Error(`${name}: ${(error as Error).message.split('\n')[0]}`, { cause: error });
  }
}

/** Where a command that moves the keyboard focus leaves it. */
const FOCUS_IN_SIDEBAR = '#workbench\\.parts\\.sidebar :focus';
const FOCUS_IN_PANEL = '#workbench\\.parts\\.panel :focus';
const NOTIFICATION_CENTER = '.notifications-center';

/**
 * Runs a command from the command palette by its title, as a person types it: Enter once the
 * command's row is drawn. `settled` is what the page shows once the command has done its work. A
 * command that moves the focus (View: Show Lore) does so after the palette has closed; on a loaded
 * machine the next palette could open first, lose the focus and close under the keys typed into it
 * (seen: 'palette "Lore: Forget": locator.fill: Timeout 30000ms exceeded'), so the next step waits
 * for the focus to land. A workbench still settling after a (re)load can likewise close the palette
 * under the keys: then, and only then (the palette is gone), it is opened again, at most three times.
 * The one palette step of the page scenarios (offerScenarios.ts too).
 */
export async function palette(page: Page, title: string, settled?: string): Promise<void> {
  await step(`palette "${title}"`, async () => {
    const widget = page.locator('.quick-input-widget');
    const input = widget.locator('.quick-input-box input');
    const row = widget.locator('.quick-input-list .monaco-list-row').filter({ hasText: title }).first();
    for (let attempt = 1; ; attempt++) {
      try {
        await page.keyboard.press('F1');
        await input.waitFor({ state: 'visible', timeout: WAIT_MS });
        await input.fill(`>${title}`, { timeout: WAIT_MS });
        await row.waitFor({ state: 'visible', timeout: WAIT_MS });
        await input.press('Enter', { timeout: WAIT_MS });
        break;
      } catch (error) {
        if (attempt === 3 || (await input.isVisible())) throw error;
      }
    }
    if (settled) await page.locator(settled).first().waitFor({ state: 'visible', timeout: WAIT_MS });
  });
}

const SCENARIOS: Scenario[] = [
  {
    // driftDocs.test.ts leaves the doc's reference changed; this window is the reload.
    title: "After a reload, a doc's drift finding is in the Problems panel without a Lore view opened",
    async run({ page, artifacts }) {
      const statusBar = page.locator('#workbench\\.parts\\.statusbar').getByText('Lore').first();
      await step('wait for the workbench', () => statusBar.waitFor({ state: 'visible', timeout: LOAD_MS }));
      await palette(page, 'Problems: Focus on Problems View', FOCUS_IN_PANEL);
      const warning = `\`${DRIFT_DOC.symbol}\` in ${DRIFT_DOC.code} changed since this guide was last checked`;
      const inProblems = (text: string) => page.locator('.markers-panel').getByText(text).first();
      await step(`Problems: "${warning}"`, () => inProblems(warning).waitFor({ state: 'visible', timeout: WAIT_MS }));
      await step('on the doc', () => inProblems('worker.md').waitFor({ state: 'visible', timeout: WAIT_MS }));
      await page.screenshot({ path: `${artifacts}/drift-after-reload.png` });
    },
  },
  {
    title: 'Forget (from the command palette, confirmed in the modal) removes the record from the store and the view',
    async run({ page, lore }) {
      const { key, title } = SEEDED_DEAD_END;
      // The window is ready for keys once Lore's status-bar item shows (the extension has activated);
      // run alone (LORE_EDITOR_GREP) this is the window's first load.
      await step('wait for the workbench', () =>
        page
          .locator('#workbench\\.parts\\.statusbar')
          .getByText('Lore')
          .first()
          .waitFor({ state: 'visible', timeout: LOAD_MS }),
      );
      await palette(page, 'View: Show Lore', FOCUS_IN_SIDEBAR);
      await step('Dead Ends view shows the record', () =>
        perform(page, { action: 'waitForSidebarText', view: 'Dead Ends', text: title, timeoutMs: WAIT_MS }, ''),
      );
      await palette(page, 'Lore: Forget');
      await step('pick the record', () =>
        perform(page, { action: 'quickInput', prompt: 'Forget which memory', text: key, timeoutMs: WAIT_MS }, ''),
      );
      await step('confirm in the modal', () =>
        perform(page, { action: 'dialogButton', label: 'Forget', timeoutMs: WAIT_MS }, ''),
      );
      await step('gone from the view', () =>
        perform(page, { action: 'waitForSidebarTextGone', view: 'Dead Ends', text: title, timeoutMs: WAIT_MS }, ''),
      );
      await palette(page, 'Notifications: Show Notifications', NOTIFICATION_CENTER);
      await step('receipt notification', () =>
        perform(page, { action: 'waitForNotification', text: `Forgot ${key}`, timeoutMs: WAIT_MS }, ''),
      );
      const get = await lore(['get', key]);
      if (get.code === 0 || !/no memory with key/.test(get.stderr + get.stdout)) {
        throw new Error(`lore get ${key} still answers (exit ${get.code}): ${get.stdout.slice(0, 300)}`);
      }
    },
  },
  {
    title: 'Promote to Repository writes the ADR where this repository keeps its ADRs, and says where',
    async run({ page, artifacts, lore }) {
      const { key } = SEEDED_DECISION;
      const statusBar = page.locator('#workbench\\.parts\\.statusbar').getByText('Lore').first();
      const ask = (prompt: string, text: string) =>
        perform(page, { action: 'quickInput', prompt, text, timeoutMs: WAIT_MS }, '');
      await step('wait for the workbench', () => statusBar.waitFor({ state: 'visible', timeout: LOAD_MS }));
      await palette(page, 'Lore: Promote to Repository');
      await step('pick the decision', () => ask('Write which memory', key));
      await step('as an ADR file', () => ask(`Write ${key}`, 'ADR file'));
      await step('confirm in the modal', () =>
        perform(page, { action: 'dialogButton', label: 'Write', timeoutMs: WAIT_MS }, ''),
      );
      // The command opens the ADR, then says where it wrote it. The toast hides itself after 15 s of a
      // focused window, which a loaded machine can spend before the page is read again (seen: the
      // wait for the toast timed out with the notification in the bell): it is read in the
      // notification center, which keeps it, once the ADR's editor (the step before the message) is open.
      const adrTab = page.locator('.tabs-container .tab.active').filter({ hasText: NEXT_ADR.split('/').pop()! });
      await step('the ADR opens', () => adrTab.first().waitFor({ state: 'visible', timeout: WAIT_MS }));
      await palette(page, 'Notifications: Show Notifications', NOTIFICATION_CENTER);
      const message = `Lore wrote ${key} to ${NEXT_ADR}`;
      await step('the message names the file', () =>
        perform(page, { action: 'waitForNotification', text: message, timeoutMs: WAIT_MS }, ''),
      );
      await page.screenshot({ path: `${artifacts}/promote-adr.png` });
      const history = await lore(['history', key]);
      if (!history.stdout.includes(`written to ${NEXT_ADR}`))
        throw new Error(`lore history ${key} does not record ${NEXT_ADR}: ${history.stdout.slice(0, 400)}`);
    },
  },
];

/** The page scenarios' titles, as the results name them. */
export const SCENARIO_TITLES = SCENARIOS.map((scenario) => `In the page: ${scenario.title}`);

/** Whether a test titled `title` runs under LORE_EDITOR_GREP: a part of its title, or several separated by |. */
export function selected(title: string): boolean {
  const grep = process.env.LORE_EDITOR_GREP;
  return !grep || grep.split('|').some((part) => title.includes(part));
}

export async function runScenarios(ctx: ScenarioContext): Promise<TestResult[]> {
  const results: TestResult[] = [];
  for (const scenario of SCENARIOS) {
    const title = `In the page: ${scenario.title}`;
    if (!selected(title)) continue;
    const started = performance.now();
    try {
      await scenario.run(ctx);
      results.push({ title, state: 'passed', seconds: secondsSince(started) });
    } catch (error) {
      await ctx.page
        .screenshot({ path: `${ctx.artifacts}/scenario-failure-${results.length + 1}.png` })
        .catch(() => undefined);
      results.push({
        title,
        state: 'failed',
        error: (error as Error).message.split('\n')[0],
        seconds: secondsSince(started),
      });
    }
  }
  return results;
}

export function cliRunner(
  node: string,
  cli: string,
  workspace: string,
  env: NodeJS.ProcessEnv,
): ScenarioContext['lore'] {
  return (args) =>
    new Promise((resolve) => {
      execFile(node, [cli, '--workspace', workspace, '--json', ...args], { env }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      });
    });
}

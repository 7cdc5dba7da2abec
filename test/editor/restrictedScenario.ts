// Restricted Mode in the real editor (issue 25, point 4): a window whose folder is not trusted
// (workspace trust on, the folder never trusted) with the extension loaded. What a person meets
// there: the palette offers none of the Lore commands that cannot run (their `when` clauses hide
// them, no error explains it after the fact), the Lore sidebar's one welcome says why Lore is off
// and how to trust the folder, and no notification says "Lore:" twice. Read from the page.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { secondsSince, type TestResult } from './bridge';
import { selected, step } from './scenarios';
import type { Page } from './tools';
import { perform } from './ui';

export const RESTRICTED_TITLE =
  'In Restricted Mode the palette hides the Lore commands that cannot run, the one welcome says why and how ' +
  'to trust the folder, and no message says "Lore:" twice';

const WAIT_MS = 120_000;

interface Contributed {
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    menus: { commandPalette: { command: string; when?: string }[] };
  };
}

/** The palette titles ("Lore: Recall…") of the commands whose palette `when` needs a trusted workspace. */
export function trustedOnlyTitles(root: string): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Contributed;
  const when = new Map(manifest.contributes.menus.commandPalette.map((entry) => [entry.command, entry.when ?? '']));
  return manifest.contributes.commands
    .filter((c) => /(^|[^!])isWorkspaceTrusted/.test(when.get(c.command) ?? ''))
    .map((c) => `${c.category ? `${c.category}: ` : ''}${c.title}`);
}

export interface RestrictedContext {
  /** A window on the workspace in Restricted Mode; closed when the scenario ends. */
  openUntrusted(): Promise<{ page: Page; close(): Promise<void> }>;
  root: string;
  artifacts: string;
}

export async function runRestrictedScenario(ctx: RestrictedContext): Promise<TestResult[]> {
  const title = `In the page: ${RESTRICTED_TITLE}`;
  if (!selected(title)) return [];
  let page: Page | undefined;
  let close = async () => undefined as void;
  const started = performance.now();
  try {
    ({ page, close } = await step('open the untrusted window', () => ctx.openUntrusted()));
    await restricted(page, ctx);
    return [{ title, state: 'passed', seconds: secondsSince(started) }];
  } catch (error) {
    await page?.screenshot({ path: join(ctx.artifacts, 'restricted-mode-failure.png') }).catch(() => undefined);
    return [{ title, state: 'failed', error: (error as Error).message.split('\n')[0], seconds: secondsSince(started) }];
  } finally {
    await close().catch(() => undefined);
  }
}

async function restricted(page: Page, ctx: RestrictedContext): Promise<void> {
  const ask = (request: Parameters<typeof perform>[1]) => perform(page, request, ctx.artifacts);
  const statusBar = page.locator('#workbench\\.parts\\.statusbar');
  await step('the window is in Restricted Mode', () =>
    statusBar.getByText('Restricted Mode').first().waitFor({ state: 'visible', timeout: WAIT_MS }),
  );

  // The Lore container, opened as a person opens it: its one welcome explains, with the way to trust.
  // Its activity-bar icon, clicked as a person does (the palette's "View: Show Lore" left Explorer open).
  await step('open the Lore sidebar', () =>
    page.locator('.activitybar .action-item [aria-label^="Lore"]').first().click({ timeout: WAIT_MS }),
  );
  const sidebar = await step('the welcome', () =>
    ask({ action: 'waitForSidebarText', text: 'Lore is off in Restricted Mode', timeoutMs: WAIT_MS }),
  );
  if (!/trust the folder|trust it/i.test(sidebar ?? '')) throw new Error(`the welcome says how to trust: ${sidebar}`);
  const button = page.locator('#workbench\\.parts\\.sidebar').getByRole('button', { name: 'Manage Workspace Trust' });
  await step('the welcome offers Manage Workspace Trust', () =>
    button.first().waitFor({ state: 'visible', timeout: WAIT_MS }),
  );
  if ((sidebar?.match(/Lore is off in Restricted Mode/g) ?? []).length !== 1)
    throw new Error(`one welcome, not one per view: ${sidebar}`);
  await page.screenshot({ path: join(ctx.artifacts, 'restricted-mode.png') });

  // The palette, filtered on Lore: only what can run here (Show Log), none of the commands that need trust.
  await page.keyboard.press('F1');
  const rows = JSON.parse(
    (await step('the palette filtered on Lore', () =>
      ask({ action: 'typeAndReadRows', prompt: '', text: '>Lore: ', until: 'Lore: Show Log', timeoutMs: WAIT_MS }),
    )) ?? '[]',
  ) as string[];
  await page.screenshot({ path: join(ctx.artifacts, 'restricted-mode-palette.png') });
  await page.keyboard.press('Escape');
  const hidden = trustedOnlyTitles(ctx.root);
  const offered = rows.filter((row) => hidden.includes(row));
  if (hidden.length < 10 || offered.length)
    throw new Error(`the palette offers commands that cannot run here: ${JSON.stringify(offered)} of ${rows}`);

  // Every notification the window shows (the center holds toasts already gone) names Lore once at most.
  const texts = JSON.parse(
    (await step('the notifications', async () => {
      await page.keyboard.press('F1');
      await ask({ action: 'quickInput', prompt: '', text: '>Notifications: Show Notifications', timeoutMs: WAIT_MS });
      return ask({ action: 'notificationTexts' });
    })) ?? '[]',
  ) as string[];
  const twice = texts.filter((text) => text.split('Lore:').length > 2);
  if (twice.length) throw new Error(`a message says "Lore:" twice: ${JSON.stringify(twice)}`);
}

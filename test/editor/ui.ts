// The runner's side of the bridge (see bridge.ts): answers the in-host suite's UI requests in the
// real browser page through playwright-core, one at a time, in the order they were made. Every
// wait is playwright's own wait for an element, bounded by the request's timeout.

import { existsSync, readdirSync, readFileSync, watch } from 'node:fs';
import { join } from 'node:path';
import { REQUEST_PATTERN, responseFile, writeWhole, type UiRequest, type UiResponse } from './bridge';
import type { Page } from './tools';

const SIDEBAR = '#workbench\\.parts\\.sidebar';
const QUICK_INPUT = '.quick-input-widget';
const NOTIFICATION = '.notifications-toasts .notification-list-item, .notifications-center .notification-list-item';
// Generous and fixed: the tier often runs on a shared, loaded machine.
const DEFAULT_WAIT_MS = 60_000;

export function serveUiRequests(page: Page, bridge: string, artifacts: string): { stop(): void } {
  const done = new Set<number>();
  let queue = Promise.resolve();
  const scan = () => {
    for (const name of readdirSync(bridge)) {
      const match = REQUEST_PATTERN.exec(name);
      if (!match) continue;
      const id = Number(match[1]);
      if (done.has(id) || existsSync(join(bridge, responseFile(id)))) continue;
      done.add(id);
      const request = JSON.parse(readFileSync(join(bridge, name), 'utf8')) as UiRequest;
      queue = queue.then(async () => {
        const response = await answer(page, request, artifacts);
        // A failed UI step leaves a picture of what the page showed instead.
        if (!response.ok)
          await page.screenshot({ path: join(artifacts, `ui-failure-${id}.png`) }).catch(() => undefined);
        writeWhole(bridge, responseFile(id), response);
      });
    }
  };
  const watcher = watch(bridge, scan);
  scan();
  return { stop: () => watcher.close() };
}

async function answer(page: Page, request: UiRequest, artifacts: string): Promise<UiResponse> {
  try {
    return { ok: true, value: await perform(page, request, artifacts) };
  } catch (error) {
    return { ok: false, error: (error as Error).message.split('\n')[0] };
  }
}

export async function perform(page: Page, request: UiRequest, artifacts: string): Promise<string | undefined> {
  const sidebar = page.locator(SIDEBAR);
  const timeout = ('timeoutMs' in request ? request.timeoutMs : undefined) ?? DEFAULT_WAIT_MS;
  switch (request.action) {
    case 'waitForSidebarText':
      await within(page, request.view).getByText(request.text).first().waitFor({ state: 'visible', timeout });
      return sidebar.innerText();
    case 'waitForSidebarTextGone':
      await within(page, request.view).getByText(request.text).first().waitFor({ state: 'hidden', timeout });
      return sidebar.innerText();
    case 'waitForNotification': {
      // A toast, or the notification center once it is opened (toasts of a background page hide).
      const toast = page.locator('.notifications-toasts, .notifications-center').getByText(request.text).first();
      await toast.waitFor({ state: 'visible', timeout });
      return toast.innerText();
    }
    case 'screenshot': {
      const path = join(artifacts, `${request.name}.png`);
      if (request.part === 'sidebar') await sidebar.screenshot({ path });
      else await page.screenshot({ path });
      return path;
    }
    case 'quickInput': {
      const input = await openQuickInput(page, request.prompt, timeout);
      if (request.text !== undefined) await input.fill(request.text);
      await input.press('Enter');
      return undefined;
    }
    case 'quickPickItems': {
      await openQuickInput(page, request.prompt, timeout);
      const rows = page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`);
      await rows.first().waitFor({ state: 'visible', timeout });
      return JSON.stringify(await rows.allInnerTexts());
    }
    case 'typeAndReadRows': {
      const input = await openQuickInput(page, request.prompt, timeout);
      await input.fill(request.text);
      const rows = page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`);
      await rows.filter({ hasText: request.until }).first().waitFor({ state: 'visible', timeout });
      // The list draws rows absolutely positioned, in no DOM order: data-index is the row's place.
      const drawn = await rows.evaluateAll((elements) =>
        elements.map((row) => ({
          index: Number(row.getAttribute('data-index')),
          label: row.querySelector('.label-name')?.innerText ?? row.innerText,
        })),
      );
      return JSON.stringify(drawn.sort((a, b) => a.index - b.index).map((row) => row.label.trim()));
    }
    case 'quickInputRead': {
      const input = await openQuickInput(page, request.prompt, timeout);
      if (request.text !== undefined) await input.fill(request.text);
      const widget = page.locator(QUICK_INPUT);
      if (request.until) await widget.getByText(request.until).first().waitFor({ state: 'visible', timeout });
      const text = async (selector: string) => (await widget.locator(selector).allInnerTexts()).join(' ').trim();
      return JSON.stringify({
        title: await text('.quick-input-title'),
        value: await input.inputValue(),
        message: await text('.quick-input-message'),
      });
    }
    case 'press':
      await page.keyboard.press(request.key);
      return undefined;
    case 'dialogButton': {
      const button = page.locator('.monaco-dialog-box').getByRole('button', { name: request.label, exact: true });
      await button.waitFor({ state: 'visible', timeout });
      await button.click();
      return undefined;
    }
    case 'treeItemAction': {
      // Inline actions are drawn on the row only while the pointer is over it, as a person sees them.
      const row = within(page, request.view).locator('.monaco-list-row').filter({ hasText: request.row }).first();
      await row.waitFor({ state: 'visible', timeout });
      await row.hover();
      const button = row.locator('.actions').getByRole('button', { name: request.label });
      await button.first().click({ timeout });
      return undefined;
    }
    case 'waitForNotificationGone': {
      const shown = page.locator('.notifications-toasts, .notifications-center').getByText(request.text).first();
      await shown.waitFor({ state: 'hidden', timeout });
      return undefined;
    }
    case 'notificationTexts': {
      const shown = page.locator(NOTIFICATION).filter({ visible: true });
      if (request.until) await shown.filter({ hasText: request.until }).first().waitFor({ state: 'visible', timeout });
      return JSON.stringify(await shown.allInnerTexts());
    }
    case 'notificationButton': {
      const item = page.locator(NOTIFICATION).filter({ visible: true }).filter({ hasText: request.text }).first();
      await item.waitFor({ state: 'visible', timeout });
      await item.getByRole('button', { name: request.label, exact: true }).click({ timeout });
      return undefined;
    }
    case 'waitForPanelText': {
      const text = page.locator('#workbench\\.parts\\.panel').getByText(request.text).first();
      await text.waitFor({ state: 'visible', timeout });
      return text.innerText();
    }
    case 'treeItemMenu': {
      const row = within(page, request.view).locator('.monaco-list-row').filter({ hasText: request.row }).first();
      await row.waitFor({ state: 'visible', timeout });
      await row.hover();
      const buttons = row.locator('.actions .action-label');
      const inline = await buttons.evaluateAll((elements) => elements.map((e) => e.getAttribute('aria-label') ?? ''));
      await row.click({ button: 'right' });
      const items = page.locator('.context-view .monaco-menu .action-item:not(.disabled) .action-label');
      await items.first().waitFor({ state: 'visible', timeout });
      const menu = (await items.allInnerTexts()).map((t) => t.trim()).filter(Boolean);
      // The window with the menu open, before it is closed: what the person is offered.
      if (request.screenshot) await page.screenshot({ path: join(artifacts, `${request.screenshot}.png`) });
      await page.keyboard.press('Escape');
      await page.locator('.context-view .monaco-menu').first().waitFor({ state: 'hidden', timeout });
      return JSON.stringify({ inline, menu });
    }
    case 'treeItemClick': {
      let rows = within(page, request.view)
        .locator('.monaco-list-row')
        .filter({ has: page.getByText(request.label, { exact: true }) });
      if (request.description !== undefined)
        rows = rows.filter({ has: page.locator('.label-description').getByText(request.description, { exact: true }) });
      const row = rows.first();
      await row.click({ timeout });
      return undefined;
    }
    case 'treeItemMenuPick': {
      const row = within(page, request.view).locator('.monaco-list-row').filter({ hasText: request.row }).first();
      await row.click({ button: 'right', timeout });
      const item = page.locator('.context-view .monaco-menu .action-item:not(.disabled) .action-label', {
        hasText: request.label,
      });
      // The pick is taken once the menu has closed. A click that lands while the menu is still being
      // laid out is dropped by the workbench and leaves it open (seen in CI): the item is clicked again.
      const menu = page.locator('.context-view .monaco-menu').first();
      for (let attempt = 1; ; attempt++) {
        await item.first().click({ timeout });
        const closed = await menu
          .waitFor({ state: 'hidden', timeout: attempt < 3 ? timeout / 6 : timeout })
          .then(() => true)
          .catch((error: unknown) => {
            if (attempt >= 3) throw error;
            return false;
          });
        if (closed) return undefined;
      }
    }
    case 'waitForCodeLens': {
      const lenses = page.locator('.monaco-editor .codelens-decoration');
      await lenses.filter({ hasText: request.text }).first().waitFor({ state: 'visible', timeout });
      return JSON.stringify(await lenses.allInnerTexts());
    }
    case 'hoverEditorWord': {
      const word = page.locator('.monaco-editor .view-lines span span').getByText(request.word, { exact: true });
      await word.first().waitFor({ state: 'visible', timeout });
      await word.first().hover();
      const hover = page.locator('.monaco-hover').filter({ hasText: request.until }).first();
      await hover.waitFor({ state: 'visible', timeout });
      return hover.innerText();
    }
  }
}

/** The sidebar, or the body of its view titled `view` (a pane whose header shows that title). */
function within(page: Page, view: string | undefined) {
  const sidebar = page.locator(SIDEBAR);
  if (!view) return sidebar;
  return sidebar
    .locator('.pane')
    .filter({ has: page.locator('.pane-header', { hasText: view }) })
    .locator('.pane-body');
}

/** The quick input's text box once the widget shows `prompt` (as its message, title or placeholder). */
async function openQuickInput(page: Page, prompt: string, timeout: number) {
  const widget = page.locator(QUICK_INPUT);
  const input = widget.locator('.quick-input-box input');
  const shown = prompt ? widget.getByText(prompt).or(widget.getByPlaceholder(prompt)).first() : input;
  await shown.waitFor({ state: 'visible', timeout });
  return input;
}

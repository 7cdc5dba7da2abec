// The folder the in-host suite and the runner talk through. The suite (inside the extension host)
// asks for what only a person at the screen can do — type into a quick input, press a dialog
// button, read or photograph the sidebar — and the runner does it in the real browser page.
// One request file per ask, answered by one response file; each is written whole (temp + rename)
// so neither side reads half a file.

import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type UiRequest =
  /** Waits until `text` shows in the sidebar — inside the view titled `view` when given. */
  | { action: 'waitForSidebarText'; text: string; view?: string; timeoutMs?: number }
  | { action: 'waitForSidebarTextGone'; text: string; view?: string; timeoutMs?: number }
  | { action: 'waitForNotification'; text: string; timeoutMs?: number }
  /** Clicks the button `label` on the notification toast showing `text`. */
  | { action: 'notificationButton'; text: string; label: string; timeoutMs?: number }
  | { action: 'screenshot'; name: string; part: 'sidebar' | 'window' }
  /** Waits for the quick input showing `prompt` (its message or placeholder), types `text`, presses Enter. */
  | { action: 'quickInput'; prompt: string; text?: string; timeoutMs?: number }
  /** The labels of the open quick pick's items (after `prompt` shows). */
  | { action: 'quickPickItems'; prompt: string; timeoutMs?: number }
  /**
   * Types `text` into the quick input showing `prompt` (without Enter), waits until a row showing
   * `until` is drawn, and answers the rows' labels top to bottom as JSON.
   */
  | { action: 'typeAndReadRows'; prompt: string; text: string; until: string; timeoutMs?: number }
  /**
   * The quick input showing `prompt`: types `text` into it when given (no Enter), waits for `until`
   * to show in it when given, and answers JSON { title, value, message } (title with its step).
   */
  | { action: 'quickInputRead'; prompt: string; text?: string; until?: string; timeoutMs?: number }
  /** Presses a key in the page (e.g. Escape, to close a quick input as a person would). */
  | { action: 'press'; key: string }
  | { action: 'dialogButton'; label: string; timeoutMs?: number }
  /** Hovers the row showing `row` in the view titled `view` and clicks its inline action named `label`. */
  | { action: 'treeItemAction'; view: string; row: string; label: string; timeoutMs?: number }
  | { action: 'waitForNotificationGone'; text: string; timeoutMs?: number }
  /**
   * The shown notifications (toasts, and the notification center when open), each with its buttons,
   * as JSON — once one that says `until` shows, when given.
   */
  | { action: 'notificationTexts'; until?: string; timeoutMs?: number }
  /** Waits until `text` shows in the panel (the Output view, the Problems panel…). */
  | { action: 'waitForPanelText'; text: string; timeoutMs?: number }
  /**
   * The actions a person is offered on the row showing `row` in the view titled `view`: the inline
   * buttons drawn while the pointer is over it, and its context menu (opened, read, closed). JSON
   * { inline: string[], menu: string[] }. `screenshot`: the window is photographed with the menu open, as that name.
   */
  | { action: 'treeItemMenu'; view: string; row: string; timeoutMs?: number; screenshot?: string }
  /** Clicks the row labelled exactly `label` in the view titled `view` (a group row opens or closes). */
  | {
      action: 'treeItemClick';
      view: string;
      label: string;
      /** The row's description (a group's count) it must show first: a click before a redraw can be undone by it. */
      description?: string;
      timeoutMs?: number;
    }
  /** Opens the context menu of the row showing `row` in the view titled `view` and chooses `label`. */
  | { action: 'treeItemMenuPick'; view: string; row: string; label: string; timeoutMs?: number }
  /** Waits until a CodeLens showing `text` is drawn in the editor; answers the lenses' texts as JSON. */
  | { action: 'waitForCodeLens'; text: string; timeoutMs?: number }
  /** Puts the pointer on the word `word` in the editor, waits for a hover showing `until`; answers its text. */
  | { action: 'hoverEditorWord'; word: string; until: string; timeoutMs?: number };

export type UiResponse = { ok: true; value?: string } | { ok: false; error: string };

export interface TestResult {
  title: string;
  state: 'passed' | 'failed' | 'skipped';
  error?: string;
  /** How long it took (wall clock; a loaded machine stretches it): where the tier's time goes. */
  seconds?: number;
}

export interface SuiteResults {
  tests: TestResult[];
}

export const RESULTS_FILE = 'results.json';

/** Seconds since `started` (a performance.now() reading), to a tenth: a result's `seconds`. */
export function secondsSince(started: number): number {
  return Math.round((performance.now() - started) / 100) / 10;
}

/** A measurement the suite reports (not asserts): figures.json, printed by the runner after the results. */
export interface Figure {
  name: string;
  label: string;
  unit: 'ms';
  busy: { p50: number; p99: number; max: number };
  /** The same measure over an idle window just before. */
  idle: { p50: number; p99: number; max: number };
  seconds: number;
  /** CPU time (user + system) the extension host spent over the same window. */
  hostCpuSeconds: number;
  /** The machine's 1-minute load average at the start and the end. */
  loadAverage: [number, number];
}

export const FIGURES_FILE = 'figures.json';
export const requestFile = (id: number) => `req-${id}.json`;
export const responseFile = (id: number) => `res-${id}.json`;
export const REQUEST_PATTERN = /^req-(\d+)\.json$/;

export function writeWhole(dir: string, name: string, value: unknown): void {
  const temp = join(dir, `.${name}.tmp`);
  writeFileSync(temp, JSON.stringify(value, null, 2));
  renameSync(temp, join(dir, name));
}

// The few shapes the runner uses from playwright-core and @vscode/test-electron. Both live in
// scripts/editor/setup.sh's cache, not in node_modules, so their own type declarations are not
// visible to the project's typecheck; these are written against their documented APIs.

export interface Locator {
  first(): Locator;
  getByText(text: string, options?: { exact?: boolean }): Locator;
  getByRole(role: string, options?: { name?: string; exact?: boolean }): Locator;
  getByPlaceholder(text: string): Locator;
  or(other: Locator): Locator;
  filter(options: { has?: Locator; hasText?: string; visible?: boolean }): Locator;
  allInnerTexts(): Promise<string[]>;
  evaluateAll<R>(fn: (elements: HTMLElementLike[]) => R): Promise<R>;
  locator(selector: string): Locator;
  waitFor(options?: { state?: 'attached' | 'visible' | 'hidden'; timeout?: number }): Promise<void>;
  innerText(): Promise<string>;
  fill(text: string, options?: { timeout?: number }): Promise<void>;
  inputValue(): Promise<string>;
  press(key: string, options?: { timeout?: number }): Promise<void>;
  isVisible(): Promise<boolean>;
  click(options?: { button?: 'left' | 'right'; timeout?: number }): Promise<void>;
  hover(options?: { timeout?: number }): Promise<void>;
  screenshot(options: { path: string }): Promise<Buffer>;
}

/** What evaluateAll's callback reads of a DOM element (it runs in the page). */
export interface HTMLElementLike {
  innerText: string;
  getAttribute(name: string): string | null;
  querySelector(selector: string): HTMLElementLike | null;
}

export interface Page {
  keyboard: { press(key: string): Promise<void> };
  close(): Promise<void>;
  locator(selector: string, options?: { hasText?: string }): Locator;
  getByText(text: string, options?: { exact?: boolean }): Locator;
  goto(url: string, options?: { timeout?: number }): Promise<unknown>;
  reload(): Promise<unknown>;
  screenshot(options: { path: string }): Promise<Buffer>;
  exposeFunction(name: string, fn: (...args: never[]) => unknown): Promise<void>;
  on(event: 'pageerror', listener: (error: Error) => void): void;
  on(event: 'console', listener: (message: { type(): string; text(): string }) => void): void;
}

export interface BrowserContext {
  pages(): Page[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export interface Browser {
  /** A window with a profile of its own, never used before (kept in memory until closed). */
  newContext(options: { viewport: { width: number; height: number } }): Promise<BrowserContext>;
  close(): Promise<void>;
}

export interface PlaywrightCore {
  chromium: {
    launch(options: { executablePath: string; headless: boolean; args: string[] }): Promise<Browser>;
    launchPersistentContext(
      userDataDir: string,
      options: {
        executablePath: string;
        headless: boolean;
        args: string[];
        viewport: { width: number; height: number };
      },
    ): Promise<BrowserContext>;
  };
}

export interface TestElectron {
  runTests(options: {
    vscodeExecutablePath: string;
    extensionDevelopmentPath: string;
    extensionTestsPath: string;
    launchArgs: string[];
    extensionTestsEnv: Record<string, string | undefined>;
  }): Promise<number>;
}

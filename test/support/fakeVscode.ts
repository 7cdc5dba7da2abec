// A small stand-in for the `vscode` module, enough to activate the bundled extension
// (dist/extension.js) in plain Node and see what it registers: commands, tree views, the status
// item, diagnostics, code actions, the MCP provider. Dialogs answer from a script the test sets.
// It is injected by `installFakeVscode`, which makes `require('vscode')` return it.

import Module from 'node:module';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

type Listener<T> = (value: T) => unknown;

export class EventEmitter<T> {
  private listeners = new Set<Listener<T>>();
  event = (listener: Listener<T>) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };
  fire(value: T): void {
    for (const l of [...this.listeners]) l(value);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query: string,
  ) {}
  static file(path: string): Uri {
    return new Uri('file', '', path, '');
  }
  static parse(text: string): Uri {
    const url = new URL(text);
    return new Uri(
      url.protocol.replace(/:$/, ''),
      url.host,
      decodeURIComponent(url.pathname),
      url.search.replace(/^\?/, ''),
    );
  }
  static from(parts: { scheme: string; authority?: string; path?: string; query?: string }): Uri {
    return new Uri(parts.scheme, parts.authority ?? '', parts.path ?? '', parts.query ?? '');
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    if (this.scheme === 'file') return pathToFileURL(this.path).toString();
    return `${this.scheme}://${this.authority}${this.path}${this.query ? `?${this.query}` : ''}`;
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}
export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(a: number | Position, b: number | Position, c?: number, d?: number) {
    this.start = typeof a === 'number' ? new Position(a, b as number) : a;
    this.end = typeof a === 'number' ? new Position(c!, d!) : (b as Position);
  }
}
export class Selection extends Range {
  constructor(
    readonly anchor: Position,
    readonly active: Position,
  ) {
    super(anchor, active);
  }
}

export class TreeItem {
  id?: string;
  description?: string;
  tooltip?: unknown;
  iconPath?: unknown;
  contextValue?: string;
  command?: { command: string; title: string; arguments?: unknown[] };
  resourceUri?: Uri;
  constructor(
    readonly label: string,
    readonly collapsibleState = 0,
  ) {}
}
export class ThemeIcon {
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}
export class ThemeColor {
  constructor(readonly id: string) {}
}
export class MarkdownString {
  constructor(readonly value = '') {}
}
export class Diagnostic {
  source?: string;
  code?: string;
  constructor(
    readonly range: Range,
    readonly message: string,
    readonly severity: number,
  ) {}
}
export class CodeAction {
  diagnostics?: Diagnostic[];
  command?: { command: string; title: string; arguments?: unknown[] };
  constructor(
    readonly title: string,
    readonly kind?: string,
  ) {}
}
export class McpHttpServerDefinition {
  constructor(
    readonly label: string,
    public uri: Uri,
    public headers: Record<string, string> = {},
    public version?: string,
  ) {}
}
export class McpStdioServerDefinition {
  cwd?: Uri;
  constructor(
    readonly label: string,
    public command: string,
    public args: string[] = [],
    public env: Record<string, string | number | null> = {},
    public version?: string,
  ) {}
}

export interface FakeDiagnostics {
  name: string;
  entries: Map<string, Diagnostic[]>;
}

export interface Registered {
  commands: Map<string, (...args: unknown[]) => unknown>;
  treeViews: Map<
    string,
    { treeDataProvider: { getChildren(node?: unknown): Promise<unknown[]>; getTreeItem(node: unknown): TreeItem } }
  >;
  statusItems: { id: string; text: string; tooltip: unknown; visible: boolean; command?: string }[];
  diagnostics: FakeDiagnostics[];
  codeActionProviders: unknown[];
  contentProviders: Map<string, unknown>;
  mcpProviders: Map<
    string,
    {
      provideMcpServerDefinitions(token?: unknown): unknown;
      resolveMcpServerDefinition?(def: unknown, token?: unknown): unknown;
      onDidChangeMcpServerDefinitions?: (l: () => void) => { dispose(): void };
    }
  >;
  contexts: Map<string, unknown>;
  messages: { level: 'info' | 'warning' | 'error'; text: string; items: unknown[]; modal?: boolean; detail?: string }[];
  logs: string[];
  /** Every `section.key` the extension read from its configuration. */
  settingsRead: Set<string>;
  /** Documents the extension opened, with the options it gave. */
  shown: { uri: Uri; options?: unknown }[];
}

export interface FakeQuickPick {
  items: unknown[];
  type(text: string): void;
  highlight(item: unknown): void;
  accept(item: unknown): void;
  hide(): void;
  itemsWhere(test: (items: unknown[]) => boolean): Promise<unknown[]>;
}

/** Answers for dialogs, consumed in order; a function picks among quick-pick items. */
export type Answer = string | undefined | ((items: unknown[]) => unknown);

export interface FakeVscode {
  module: Record<string, unknown>;
  registered: Registered;
  answers: Answer[];
  settings: Record<string, unknown>;
  workspace: { folders: string[]; trusted: boolean };
  events: {
    save: EventEmitter<unknown>;
    rename: EventEmitter<unknown>;
    configuration: EventEmitter<unknown>;
    folders: EventEmitter<unknown>;
    trust: EventEmitter<void>;
  };
  /** A document as the extension sees one (for save events). */
  document(path: string, text?: string): unknown;
  /** Makes a named part of the API throw, to see activation fail well. */
  breaking: Set<string>;
  /** The next quick pick the extension creates. */
  nextQuickPick(): Promise<FakeQuickPick>;
  /** Resolves once `test` holds after some diagnostics change (never by waiting a fixed time). */
  diagnosticsWhere(test: (all: Map<string, Diagnostic[]>) => boolean): Promise<void>;
}

export function createFakeVscode(): FakeVscode {
  const registered: Registered = {
    commands: new Map(),
    treeViews: new Map(),
    statusItems: [],
    diagnostics: [],
    codeActionProviders: [],
    contentProviders: new Map(),
    mcpProviders: new Map(),
    contexts: new Map(),
    messages: [],
    logs: [],
    settingsRead: new Set(),
    shown: [],
  };
  const diagnosticsChanged = new EventEmitter<void>();
  const quickPickCreated = new EventEmitter<FakeQuickPick>();
  const fake = {} as FakeVscode;
  const answers: Answer[] = [];
  const settings: Record<string, unknown> = {};
  const ws = { folders: [] as string[], trusted: true };
  const events = {
    save: new EventEmitter<unknown>(),
    open: new EventEmitter<unknown>(),
    rename: new EventEmitter<unknown>(),
    configuration: new EventEmitter<unknown>(),
    folders: new EventEmitter<unknown>(),
    trust: new EventEmitter<void>(),
  };
  const breaking = new Set<string>();
  const disposable = { dispose: () => undefined };
  const maybeBreak = (name: string) => {
    if (breaking.has(name)) throw new Error(`${name} is broken in this test`);
  };
  const next = (items?: unknown[]): unknown => {
    const answer = answers.shift();
    return typeof answer === 'function' ? answer(items ?? []) : answer;
  };
  const message =
    (level: 'info' | 'warning' | 'error') =>
    async (text: string, ...rest: unknown[]) => {
      const items = rest.filter((r) => typeof r === 'string');
      const options = rest.find((r) => typeof r === 'object' && r !== null) as
        { modal?: boolean; detail?: string } | undefined;
      const modal = options?.modal === true;
      registered.messages.push({ level, text, items, ...(modal ? { modal, detail: options?.detail } : {}) });
      // A modal confirmation is answered from the script; plain notifications are dismissed.
      return modal ? next(items) : undefined;
    };
  const log = (level: string) => (text: string) => registered.logs.push(`[${level}] ${text}`);
  const folderObjects = () =>
    ws.folders.map((path, index) => ({ uri: Uri.file(path), name: path.split('/').pop(), index }));

  const document = (path: string, text?: string) => ({
    uri: Uri.file(path),
    languageId: 'typescript',
    getText: () => text ?? readFileSync(path, 'utf8'),
  });

  fake.module = {
    EventEmitter,
    Uri,
    Position,
    Range,
    Selection,
    TreeItem,
    ThemeIcon,
    ThemeColor,
    MarkdownString,
    Diagnostic,
    CodeAction,
    McpHttpServerDefinition,
    McpStdioServerDefinition,
    Disposable: class {
      constructor(private readonly fn: () => void) {}
      dispose() {
        this.fn();
      }
    },
    TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
    StatusBarAlignment: { Left: 1, Right: 2 },
    DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
    CodeActionKind: { QuickFix: 'quickfix' },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    ViewColumn: { Active: -1, Beside: -2, One: 1 },
    InputBoxValidationSeverity: { Info: 1, Warning: 2, Error: 3 },
    QuickInputButtons: { Back: { iconPath: 'back' } },
    TabInputText: class {
      constructor(readonly uri: Uri) {}
    },
    TextEditorRevealType: { Default: 0, InCenter: 1 },
    window: {
      createOutputChannel: (name: string) => {
        maybeBreak('createOutputChannel');
        return {
          name,
          trace: log('trace'),
          debug: log('debug'),
          info: log('info'),
          warn: log('warn'),
          error: log('error'),
          append: () => undefined,
          appendLine: log('line'),
          show: () => registered.contexts.set('log.shown', true),
          hide: () => undefined,
          dispose: () => undefined,
        };
      },
      createTreeView: (id: string, options: Registered['treeViews'] extends Map<string, infer V> ? V : never) => {
        maybeBreak('createTreeView');
        registered.treeViews.set(id, options);
        return disposable;
      },
      registerTreeDataProvider: (id: string, provider: never) => {
        registered.treeViews.set(id, { treeDataProvider: provider });
        return disposable;
      },
      createStatusBarItem: (id: string) => {
        const item = {
          id,
          text: '',
          tooltip: undefined as unknown,
          visible: false,
          command: undefined as string | undefined,
          name: '',
          show() {
            item.visible = true;
          },
          hide() {
            item.visible = false;
          },
          dispose() {
            item.visible = false;
          },
        };
        registered.statusItems.push(item);
        return item;
      },
      showInformationMessage: message('info'),
      showWarningMessage: message('warning'),
      showErrorMessage: message('error'),
      showInputBox: async () => next(),
      // An input box takes its answer from the same queue as showInputBox: a string is typed and
      // accepted, undefined closes the box (Escape).
      createInputBox: () => {
        const value = new EventEmitter<string>();
        const accept = new EventEmitter<void>();
        const hidden = new EventEmitter<void>();
        const button = new EventEmitter<unknown>();
        const box = {
          title: '',
          step: 0,
          totalSteps: 0,
          prompt: '',
          placeholder: '',
          value: '',
          ignoreFocusOut: false,
          buttons: [] as unknown[],
          validationMessage: undefined as unknown,
          onDidChangeValue: value.event,
          onDidAccept: accept.event,
          onDidHide: hidden.event,
          onDidTriggerButton: button.event,
          show: () => {
            const answer = next();
            setImmediate(() => {
              if (typeof answer !== 'string') return hidden.fire();
              box.value = answer;
              value.fire(answer);
              accept.fire();
            });
          },
          hide: () => hidden.fire(),
          dispose: () => undefined,
        };
        return box;
      },
      showQuickPick: async (items: unknown[] | Promise<unknown[]>) => next(await items),
      showWorkspaceFolderPick: async () => next(folderObjects()),
      showSaveDialog: async () => next(),
      showOpenDialog: async () => next(),
      showTextDocument: async (uri: Uri, options?: unknown) => (
        registered.shown.push({ uri, options }),
        {
          document: { uri, getText: () => '', positionAt: () => new Position(0, 0) },
          selection: new Selection(new Position(0, 0), new Position(0, 0)),
          revealRange: () => undefined,
        }
      ),
      setStatusBarMessage: () => disposable,
      withProgress: async (_options: unknown, task: (progress: unknown, token: unknown) => Promise<unknown>) =>
        task(
          { report: () => undefined },
          { isCancellationRequested: false, onCancellationRequested: () => disposable },
        ),
      createQuickPick: () => {
        const value = new EventEmitter<string>();
        const active = new EventEmitter<unknown[]>();
        const accept = new EventEmitter<void>();
        const hidden = new EventEmitter<void>();
        const itemsSet = new EventEmitter<unknown[]>();
        let items: unknown[] = [];
        const pick = {
          placeholder: '',
          busy: false,
          matchOnDescription: false,
          matchOnDetail: false,
          selectedItems: [] as unknown[],
          get items() {
            return items;
          },
          set items(next: unknown[]) {
            items = next;
            itemsSet.fire(next);
          },
          onDidChangeValue: value.event,
          onDidChangeActive: active.event,
          onDidAccept: accept.event,
          onDidHide: hidden.event,
          show: () => undefined,
          hide: () => hidden.fire(),
          dispose: () => undefined,
          // Test controls: type, highlight, accept, and wait for the items shown.
          type: (text: string) => value.fire(text),
          highlight: (item: unknown) => active.fire([item]),
          accept: (item: unknown) => {
            pick.selectedItems = [item];
            accept.fire();
          },
          itemsWhere: (test: (items: unknown[]) => boolean) =>
            new Promise<unknown[]>((resolve) => {
              if (test(items)) return resolve(items);
              const sub = itemsSet.event((next) => {
                if (!test(next)) return;
                sub.dispose();
                resolve(next);
              });
            }),
        };
        quickPickCreated.fire(pick);
        return pick;
      },
      activeTextEditor: undefined,
      // No editor tabs: the real tab model is the editor tier's to show (test/editor).
      tabGroups: { all: [], close: async () => true },
    },
    commands: {
      registerCommand: (id: string, fn: (...args: unknown[]) => unknown) => {
        if (registered.commands.has(id)) throw new Error(`command ${id} already registered`);
        registered.commands.set(id, fn);
        return { dispose: () => registered.commands.delete(id) };
      },
      executeCommand: async (id: string, ...args: unknown[]) => {
        if (id === 'setContext') return void registered.contexts.set(args[0] as string, args[1]);
        if (id === 'vscode.executeDocumentSymbolProvider') return [];
        const fn = registered.commands.get(id);
        if (!fn) throw new Error(`command ${id} not found`);
        return fn(...args);
      },
    },
    workspace: {
      get workspaceFolders() {
        return folderObjects();
      },
      get isTrusted() {
        return ws.trusted;
      },
      textDocuments: [],
      getConfiguration: (section: string) => ({
        get: (key: string) => {
          registered.settingsRead.add(`${section}.${key}`);
          return settings[`${section}.${key}`];
        },
      }),
      getWorkspaceFolder: (uri: Uri) =>
        folderObjects().find((f) => uri.fsPath === f.uri.fsPath || uri.fsPath.startsWith(f.uri.fsPath + '/')),
      registerTextDocumentContentProvider: (scheme: string, provider: unknown) => {
        registered.contentProviders.set(scheme, provider);
        return disposable;
      },
      // Editable memories (lore-edit:) are a file system; kept beside the content providers.
      registerFileSystemProvider: (scheme: string, provider: unknown) => {
        registered.contentProviders.set(`fs:${scheme}`, provider);
        return disposable;
      },
      onDidSaveTextDocument: events.save.event,
      onDidOpenTextDocument: events.open.event,
      onDidRenameFiles: events.rename.event,
      onDidChangeConfiguration: events.configuration.event,
      onDidChangeWorkspaceFolders: events.folders.event,
      onDidGrantWorkspaceTrust: events.trust.event,
      fs: { writeFile: async () => undefined, readFile: async () => new Uint8Array() },
    },
    languages: {
      createDiagnosticCollection: (name: string) => {
        const entries = new Map<string, Diagnostic[]>();
        registered.diagnostics.push({ name, entries });
        const changed = () => diagnosticsChanged.fire();
        return {
          set: (uri: Uri, list: Diagnostic[]) => (entries.set(uri.toString(), list), changed()),
          clear: () => (entries.clear(), changed()),
          delete: (uri: Uri) => (entries.delete(uri.toString()), changed()),
          dispose: () => entries.clear(),
        };
      },
      registerCodeActionsProvider: (_selector: unknown, provider: unknown) => {
        registered.codeActionProviders.push(provider);
        return disposable;
      },
      // The lens and hover (lens/anchoredLens.ts): registered, not driven here (the editor tier does).
      registerCodeLensProvider: () => disposable,
      registerHoverProvider: () => disposable,
    },
    lm: {
      registerMcpServerDefinitionProvider: (id: string, provider: never) => {
        registered.mcpProviders.set(id, provider);
        return { dispose: () => registered.mcpProviders.delete(id) };
      },
    },
    env: {
      clipboard: { writeText: async (text: string) => void registered.contexts.set('clipboard', text) },
      openExternal: async () => true,
    },
  };
  const allDiagnostics = () => new Map(registered.diagnostics.flatMap((c) => [...c.entries]));
  const diagnosticsWhere = (test: (all: Map<string, Diagnostic[]>) => boolean) =>
    new Promise<void>((resolve) => {
      if (test(allDiagnostics())) return resolve();
      const sub = diagnosticsChanged.event(() => {
        if (!test(allDiagnostics())) return;
        sub.dispose();
        resolve();
      });
    });
  const nextQuickPick = () =>
    new Promise<FakeQuickPick>((resolve) => {
      const sub = quickPickCreated.event((pick) => {
        sub.dispose();
        resolve(pick);
      });
    });
  Object.assign(fake, {
    registered,
    answers,
    settings,
    workspace: ws,
    events,
    document,
    breaking,
    diagnosticsWhere,
    nextQuickPick,
  });
  return fake;
}

let current: FakeVscode | undefined;
let installed = false;

/** Makes `require('vscode')` return `fake` (the bundle keeps 'vscode' external). */
export function installFakeVscode(fake: FakeVscode): void {
  current = fake;
  if (installed) return;
  installed = true;
  const mod = Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
  const load = mod._load;
  mod._load = function (request, parent, isMain) {
    if (request === 'vscode' && current) return current.module;
    return load.call(this, request, parent, isMain);
  };
}

/** A fresh copy of a CommonJS bundle (each test activates its own). */
export function freshRequire<T>(path: string): T {
  const resolved = require.resolve(path);
  delete require.cache[resolved];
  return require(resolved) as T;
}

// What command modules are handed by activate.

import type * as vscode from 'vscode';
import type { DriftDiagnostics } from '../drift/diagnostics';
import type { DriftTracker } from '../drift/tracker';
import type { Indexing } from '../indexing';
import type { LoreStores } from '../stores';

export interface CommandDeps {
  stores: LoreStores;
  tracker: DriftTracker;
  diagnostics: DriftDiagnostics;
  indexing: Indexing;
  log: vscode.LogOutputChannel;
  /** Registers a command whose failures are shown with "Show Log". */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- VS Code passes a command whatever its caller gave.
  register(id: string, body: (...args: any[]) => Promise<unknown>): void;
}

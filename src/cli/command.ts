// The shape of a `lore` command and what it is handed: parsed options, the workspace, an output
// function that prints JSON under --json and readable text otherwise, and the store on demand.

import { userInfo } from 'node:os';
import type { Actor, Engine } from '../engine';
import { stderrLogger } from '../host/logger';
import { openStore } from '../host/openStore';

export type OptionSpec = { type: 'string' | 'boolean'; multiple?: boolean; short?: string };

export interface Command {
  name: string;
  summary: string;
  usage: string;
  options: Record<string, OptionSpec>;
  positionals: { min: number; max: number; names: string };
  run(ctx: CommandContext, values: Record<string, string | boolean | string[] | undefined>, positionals: string[]): Promise<number> | number;
}

export interface CommandContext {
  workspace: string;
  json: boolean;
  interactive: boolean;
  /** Prints `result` as JSON with --json, else the human rendering. */
  print<T>(result: T, human: (result: T) => string): void;
  withEngine<T>(work: (engine: Engine) => T | Promise<T>): Promise<T>;
  actor(): Actor;
  ask(question: string): Promise<string>;
}

export function cliActor(human = false): Actor {
  let name = 'unknown';
  try {
    name = userInfo().username;
  } catch {
    // Some containers have no passwd entry for the uid; the actor is still recorded.
  }
  return { door: 'cli', name, human };
}

export async function withStore<T>(workspace: string, work: (engine: Engine) => T | Promise<T>): Promise<T> {
  const store = openStore({ workspace, door: 'cli', logger: stderrLogger() });
  try {
    return await work(store.engine);
  } finally {
    store.close();
  }
}

// Every `lore` command, in the order `lore help` lists them.

import type { Command } from '../command';
import { auditCommand } from './audit';
import { checkCommand } from './check';
import { doctorCommand } from './doctor';
import { driftCommand } from './drift';
import { forgetCommand } from './forget';
import { getCommand } from './get';
import { historyCommand } from './history';
import { hookCommand } from './hook';
import { inboxCommand } from './inbox';
import { indexCommand } from './indexWorkspace';
import { kindCommand } from './kind';
import { listCommand } from './list';
import { mcpCommand } from './mcp';
import { modelCommand } from './model';
import { promoteCommand } from './promote';
import { recallCommand } from './recall';
import { rememberCommand } from './remember';
import { reverifyCommand } from './reverify';
import { serveCommand } from './serve';
import { sessionCommand } from './session';
import { stewardCommand } from './steward';
import { deprecateCommand, disputeCommand, retractCommand } from './status';
import { supersedeCommand } from './supersede';
import { watchCommand } from './watch';
import { canonicalizeCommand } from './canonicalize';
import { exportCommand } from './export';
import { importCommand } from './import';
import { initCommand } from './init';
import { trustCommand } from './trust';
import { storeCommand } from './store';

export const COMMANDS: readonly Command[] = [
  rememberCommand,
  recallCommand,
  indexCommand,
  kindCommand,
  watchCommand,
  modelCommand,
  getCommand,
  listCommand,
  historyCommand,
  deprecateCommand,
  disputeCommand,
  retractCommand,
  supersedeCommand,
  promoteCommand,
  forgetCommand,
  driftCommand,
  checkCommand,
  reverifyCommand,
  stewardCommand,
  inboxCommand,
  sessionCommand,
  canonicalizeCommand,
  exportCommand,
  importCommand,
  trustCommand,
  auditCommand,
  storeCommand,
  mcpCommand,
  serveCommand,
  hookCommand,
  initCommand,
  doctorCommand,
];

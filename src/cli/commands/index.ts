// Every `lore` command, in the order `lore help` lists them.

import type { Command } from '../command';
import { auditCommand } from './audit';
import { doctorCommand } from './doctor';
import { forgetCommand } from './forget';
import { getCommand } from './get';
import { historyCommand } from './history';
import { hookCommand } from './hook';
import { indexCommand } from './indexWorkspace';
import { listCommand } from './list';
import { mcpCommand } from './mcp';
import { modelCommand } from './model';
import { promoteCommand } from './promote';
import { recallCommand } from './recall';
import { rememberCommand } from './remember';
import { serveCommand } from './serve';
import { deprecateCommand, disputeCommand, retractCommand } from './status';
import { supersedeCommand } from './supersede';
import { watchCommand } from './watch';

export const COMMANDS: readonly Command[] = [
  rememberCommand,
  recallCommand,
  indexCommand,
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
  auditCommand,
  mcpCommand,
  serveCommand,
  hookCommand,
  doctorCommand,
];

// A Logger for processes whose stdout carries data (CLI output, MCP stdio): everything goes to stderr.

import type { Logger } from '../engine';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'off';
const ORDER: LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'off'];

export function stderrLogger(level: LogLevel = 'warn'): Logger {
  const threshold = ORDER.indexOf(level);
  const at = (l: LogLevel) => (message: string) => {
    if (ORDER.indexOf(l) >= threshold) process.stderr.write(`[lore ${l}] ${message}\n`);
  };
  return { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

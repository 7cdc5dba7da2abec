// Argument checks shared by commands: numbers, repeatable options and required options, each
// failing with a usage error that names the option.

import { LoreError } from '../engine';

export class UsageError extends LoreError {
  constructor(message: string, hint?: string) {
    super('INVALID_INPUT', message, hint);
  }
}

export function integerOption(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^-?\d+$/.test(value))
    throw new UsageError(`--${name} must be a whole number; got ${JSON.stringify(value)}`);
  return Number(value);
}

export function numberOption(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || value.trim() === '' || !Number.isFinite(n))
    throw new UsageError(`--${name} must be a number; got ${JSON.stringify(value)}`);
  return n;
}

export function listOption(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  return (Array.isArray(value) ? value : [value]).map(String);
}

export function requiredOption(command: string, name: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0)
    throw new UsageError(`lore ${command} needs --${name}`, `see \`lore help ${command}\``);
  return value;
}

export function stringOption(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

// Memory keys: `<type>/<slug>`, stable and readable, derived from the title when not given.

import { invalid } from '../errors';
import { LIMITS } from './limits';
import { MEMORY_TYPES, type MemoryType } from './types';
import { shown } from './shown';

const SLUG_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;
const SLUG_MAX = 80;

export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
  return slug || 'untitled';
}

/**
 * A slug for a file name: the whole title, cut at a word boundary (never mid-word) to at most
 * `max` characters; a single word longer than that is cut where it must be.
 */
export function wordSlug(title: string, max: number): string {
  const full = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (full.length <= max) return full || 'untitled';
  const cut = full.slice(0, max + 1).lastIndexOf('-');
  return (cut > 0 ? full.slice(0, cut) : full.slice(0, max)).replace(/-+$/, '');
}

export function keyFor(type: MemoryType, title: string): string {
  return `${type}/${slugify(title)}`;
}

export interface ParsedKey {
  type: MemoryType;
  slug: string;
}

/** Parses and validates a key; the error says what a valid key looks like. */
export function parseKey(key: string): ParsedKey {
  if (typeof key !== 'string' || key.length === 0)
    throw invalid('key is empty', 'a key looks like "decision/use-postgres"');
  if (key.length > LIMITS.keyChars) throw invalid(`key is longer than ${LIMITS.keyChars} characters`);
  const slash = key.indexOf('/');
  const type = key.slice(0, slash) as MemoryType;
  const slug = key.slice(slash + 1);
  if (slash < 0 || !MEMORY_TYPES.includes(type) || !SLUG_PATTERN.test(slug) || slug.length > SLUG_MAX) {
    throw invalid(
      `${shown(key)} is not a valid key`,
      `a key is <type>/<slug>: type one of ${MEMORY_TYPES.join(', ')}; ` +
        `slug of lowercase letters, digits, ".", "_" or "-" (≤ ` +
        `${SLUG_MAX})`,
    );
  }
  return { type, slug };
}

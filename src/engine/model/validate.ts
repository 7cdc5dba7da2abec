// Boundary validation for everything written into a store: types, enums, limits, dates and
// secrets. Each failure names the field, what was wrong and how to fix it.

import { LoreError, invalid } from '../errors';
import { firstSecret } from './secretRules';
import { keyFor, parseKey } from './keys';
import { shown } from './shown';
import { LIMITS } from './limits';
import {
  BASES,
  MEMORY_TYPES,
  SCOPES,
  SOURCE_KINDS,
  type Basis,
  type MemoryType,
  type RememberInput,
  type Scope,
  type SourceKind,
} from './types';

/** A remember request after validation: every optional field settled, dates normalised. */
export interface ValidRemember {
  key: string;
  type: MemoryType;
  title: string;
  description: string;
  body: string;
  links: string[];
  anchors: string[];
  tags: string[];
  scope: Scope;
  basis: Basis;
  confidence: number | null;
  provenance: {
    source: SourceKind;
    client?: string;
    agent?: string;
    session_id?: string;
    turn?: number;
    evidence: string[];
  };
  valid_from: string | null;
  valid_until: string | null;
  review_after: string | null;
  fact_key: string | null;
  expected_version: number | null;
  /** The fields the caller left out (undefined, not null): an update of an existing key keeps their stored values. */
  omitted: KeptField[];
}

/**
 * The fields an update keeps when the caller leaves them out, so `remember --key K --title …` never
 * empties a body or drops anchors it did not name. Sending null (or an empty list, or "") clears one.
 */
export const KEPT_FIELDS = [
  'body',
  'links',
  'anchors',
  'tags',
  'scope',
  'basis',
  'confidence',
  'valid_until',
  'review_after',
  'fact_key',
] as const;
export type KeptField = (typeof KEPT_FIELDS)[number];

const DEFAULT_BASIS: Record<SourceKind, Basis> = {
  user: 'declared',
  agent: 'declared',
  file: 'observed',
  webpage: 'observed',
  tool: 'observed',
  import: 'unstated',
};

export function rejectSecrets(field: string, text: string): void {
  const rule = firstSecret(text);
  if (rule) {
    throw new LoreError(
      'SECRET_DETECTED',
      `${field} looks like it contains ${rule.description} (rule: ${rule.id})`,
      'remove the secret and save again; Lore never stores secrets ' +
        '(refer to where it lives instead, e.g. "in the vault at ops/db")',
      { field, rule: rule.id },
    );
  }
}

// With the u flag a surrogate pair is one code point, so this matches only a half without its partner.
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * Text a store can keep as given: SQLite's text API ends a string at a NUL (the write would be
 * acknowledged and stored cut short), and a lone UTF-16 surrogate has no UTF-8 form.
 */
export function rejectUnstorable(field: string, text: string): void {
  const nul = text.indexOf('\0');
  if (nul >= 0) {
    const hint = `remove it from ${field}; Lore stores text, not binary data`;
    throw invalid(`${field} contains a NUL character (\\0) at position ${nul}`, hint);
  }
  if (LONE_SURROGATE.test(text)) {
    throw invalid(
      `${field} contains a lone UTF-16 surrogate (half of a character)`,
      `send ${field} as valid Unicode text (UTF-8 or well-formed UTF-16)`,
    );
  }
}

// C0 but tab and newline (a carriage return only as part of \r\n), DEL, C1, and the bidi
// embeddings, overrides (U+202A–E) and isolates (U+2066–9): what can move a terminal's cursor,
// rewrite its title or clipboard (ESC/CSI/OSC), or make text read differently than it is stored.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTER = /[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/u;

/** Text that will be shown to a person never carries characters that drive a terminal or reorder text. */
export function rejectControl(field: string, text: string): void {
  const match = CONTROL_CHARACTER.exec(text);
  if (!match) return;
  const code = match[0].charCodeAt(0).toString(16).padStart(4, '0');
  throw invalid(
    `${field} contains a control character (U+${code.toUpperCase()}) at position ${match.index}`,
    `remove it from ${field}; Lore keeps plain text (tabs and new lines are fine), never terminal escapes ` +
      'or bidirectional overrides',
  );
}

export interface TextOptions {
  allowEmpty?: boolean;
  /** A limit in UTF-8 bytes, checked with the other limits before any scan of the text. */
  maxBytes?: number;
  /** What to do when a limit is exceeded (default: shorten the field). */
  limitHint?: string;
}

/** Every text a door takes goes through here: type, limits first, then what may be stored, then secrets. */
export function requireText(field: string, value: unknown, maxChars: number, options: TextOptions = {}): string {
  const { allowEmpty = false, maxBytes, limitHint } = options;
  if (typeof value !== 'string') throw invalid(`${field} must be text`);
  const text = value.trim();
  if (!allowEmpty && text.length === 0) throw invalid(`${field} is required and must not be empty`);
  const hint = limitHint ?? `shorten ${field}`;
  if (maxBytes !== undefined) {
    const bytes = new TextEncoder().encode(text).length;
    if (bytes > maxBytes) {
      const message = `${field} is ${bytes} bytes; the limit is ${maxBytes}${kib(maxBytes)}`;
      throw new LoreError('LIMIT_EXCEEDED', message, hint);
    }
  }
  if (maxChars < Number.MAX_SAFE_INTEGER && [...text].length > maxChars) {
    throw new LoreError('LIMIT_EXCEEDED', `${field} is ${[...text].length} characters; the limit is ${maxChars}`, hint);
  }
  rejectUnstorable(field, text);
  rejectControl(field, text);
  rejectSecrets(field, text);
  return text;
}

function kib(bytes: number): string {
  return bytes % 1024 === 0 ? ` (${bytes / 1024} KiB)` : '';
}

export function requireEnum<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !allowed.includes(value as T)) {
    throw invalid(`${field} must be one of ${allowed.join(', ')}; got ${shown(value)}`);
  }
  return value as T;
}

/** Parses an ISO 8601 date or date-time; returns it normalised to UTC. */
export function requireDate(field: string, value: unknown): string {
  const iso = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
  if (typeof value !== 'string' || !iso.test(value.trim())) {
    throw invalid(`${field} must be an ISO 8601 date such as 2026-03-01 or 2026-03-01T12:00:00Z; got ${shown(value)}`);
  }
  const text = value.trim();
  const date = new Date(text.length === 10 ? `${text}T00:00:00Z` : text);
  // Date rolls 2026-02-30 over to March 2; a calendar day that does not exist is refused instead.
  const [year, month, day] = text.slice(0, 10).split('-').map(Number);
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (Number.isNaN(date.getTime()) || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) {
    throw invalid(`${field} is not a real date: ${shown(value)}`);
  }
  return date.toISOString();
}

function optionalDate(field: string, value: unknown): string | null {
  return value === undefined || value === null ? null : requireDate(field, value);
}

function textList(field: string, value: unknown, maxItems: number, maxChars: number, pattern?: RegExp): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalid(`${field} must be a list`);
  if (value.length > maxItems) {
    throw new LoreError(
      'LIMIT_EXCEEDED',
      `${field} has ${value.length} items; the limit is ${maxItems}`,
      `keep the ${maxItems} that matter`,
    );
  }
  const items = value.map((item, i) => requireText(`${field}[${i}]`, item, maxChars));
  if (pattern) {
    // The entry is named by its place, never repeated: it may be a secret no rule recognised.
    const bad = items.findIndex((item) => !pattern.test(item));
    const hint = `use letters and digits, then . _ : / - (${pattern.source})`;
    if (bad >= 0) throw invalid(`${field}[${bad}] is not allowed`, hint);
  }
  return [...new Set(items)];
}

export function optionalInteger(field: string, value: unknown, min: number, max: number): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(`${field} must be a whole number from ${min} to ${max}; got ${shown(value)}`);
  }
  return value;
}

function requireObject(field: string, value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalid(`${field} must be an object`);
  return value as Record<string, unknown>;
}

const KNOWN_FIELDS = new Set([
  'type',
  'title',
  'description',
  'body',
  'key',
  'links',
  'anchors',
  'tags',
  'scope',
  'basis',
  'confidence',
  'provenance',
  'valid_from',
  'valid_until',
  'review_after',
  'fact_key',
  'expected_version',
]);
const KNOWN_PROVENANCE = new Set(['source', 'client', 'agent', 'session_id', 'turn', 'evidence']);

function rejectUnknown(field: string, value: Record<string, unknown>, known: Set<string>): void {
  const unknown = Object.keys(value).filter((k) => !known.has(k));
  if (unknown.length)
    throw invalid(`${field} has unknown field(s): ${unknown.join(', ')}`, `allowed: ${[...known].join(', ')}`);
}

export function validateRemember(raw: RememberInput | Record<string, unknown>): ValidRemember {
  const input = requireObject('memory', raw);
  rejectUnknown('memory', input, KNOWN_FIELDS);
  const type = requireEnum('type', input.type, MEMORY_TYPES);
  const title = requireText('title', input.title, LIMITS.titleChars);
  if (/[\r\n]/.test(title)) throw invalid('title must be a single line');
  const description = requireText('description', input.description, LIMITS.descriptionChars);
  if (/[\r\n]/.test(description)) throw invalid('description must be a single line', 'put details in the body');
  const body =
    input.body === undefined || input.body === null
      ? ''
      : requireText('body', input.body, Number.MAX_SAFE_INTEGER, {
          allowEmpty: true,
          maxBytes: LIMITS.bodyBytes,
          limitHint: 'summarise it, and link to the full document instead',
        });

  let key: string;
  if (input.key === undefined || input.key === null) {
    key = keyFor(type, title);
  } else {
    key = requireText('key', input.key, LIMITS.keyChars);
    if (parseKey(key).type !== type) throw invalid(`key ${shown(key)} does not start with its type "${type}/"`);
  }

  const provenance = requireObject('provenance', input.provenance);
  rejectUnknown('provenance', provenance, KNOWN_PROVENANCE);
  const source = requireEnum('provenance.source', provenance.source, SOURCE_KINDS);
  const optionalProvenanceText = (name: string): string | undefined =>
    provenance[name] === undefined || provenance[name] === null
      ? undefined
      : requireText(`provenance.${name}`, provenance[name], LIMITS.provenanceFieldChars);

  const confidence = input.confidence === undefined || input.confidence === null ? null : input.confidence;
  if (confidence !== null && (typeof confidence !== 'number' || !(confidence >= 0 && confidence <= 1))) {
    throw invalid(`confidence must be a number from 0 to 1; got ${shown(confidence)}`);
  }

  const valid_from = optionalDate('valid_from', input.valid_from);
  const valid_until = optionalDate('valid_until', input.valid_until);
  if (valid_from && valid_until && valid_until <= valid_from)
    throw invalid('valid_until must be later than valid_from');

  return {
    key,
    type,
    title,
    description,
    body,
    links: textList('links', input.links, LIMITS.links, LIMITS.linkChars),
    anchors: textList('anchors', input.anchors, LIMITS.anchors, LIMITS.anchorChars),
    tags: textList('tags', input.tags, LIMITS.tags, LIMITS.tagChars, /^[\p{L}\p{N}][\p{L}\p{N}._:/-]*$/u).map((t) =>
      t.toLowerCase(),
    ),
    scope: input.scope === undefined || input.scope === null ? 'workspace' : requireEnum('scope', input.scope, SCOPES),
    basis:
      input.basis === undefined || input.basis === null
        ? DEFAULT_BASIS[source]
        : requireEnum('basis', input.basis, BASES),
    confidence: confidence as number | null,
    provenance: {
      source,
      client: optionalProvenanceText('client'),
      agent: optionalProvenanceText('agent'),
      session_id: optionalProvenanceText('session_id'),
      turn: optionalInteger('provenance.turn', provenance.turn, 0, 1_000_000) ?? undefined,
      evidence: textList('provenance.evidence', provenance.evidence, LIMITS.evidence, LIMITS.linkChars),
    },
    valid_from,
    valid_until,
    review_after: optionalDate('review_after', input.review_after),
    fact_key:
      input.fact_key === undefined || input.fact_key === null
        ? null
        : requireText('fact_key', input.fact_key, LIMITS.factKeyChars),
    expected_version: optionalInteger('expected_version', input.expected_version, 0, Number.MAX_SAFE_INTEGER),
    omitted: KEPT_FIELDS.filter((field) => input[field] === undefined),
  };
}

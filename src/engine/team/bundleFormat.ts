// The signed-record serialisation, format `lore-bundle` version 1, shared by exported bundles and
// `.lore/` record files (a record file is a bundle of one). This module builds and signs bundles
// and checks one completely — shape, author keys, the exporter's signature, every record's
// content digest, author signature, limits and secret rules — before anything is written.
// docs/bundle.md describes the format for someone writing their own verifier.

import { LoreError, invalid, isLoreError, type ErrorCode } from '../errors';
import { CONTENT_FIELDS, contentDigest } from '../record/contentDigest';
import { toRememberInput } from '../record/rememberInput';
import { parseKey } from '../model/keys';
import {
  BASES,
  MEMORY_TYPES,
  SCOPES,
  SOURCE_KINDS,
  STATUSES,
  type Basis,
  type Memory,
  type MemoryType,
  type Status,
} from '../model/types';
import { LIMITS } from '../model/limits';
import { requireDate, requireText, validateRemember } from '../model/validate';
import { canonicalJson } from '../model/digest';
import { keyIdOf } from '../record/integrity';
import { isEd25519PublicKey, signingPayload, verifyPayload, type Signer } from '../record/signatures';

export const BUNDLE_FORMAT = 'lore-bundle';
export const BUNDLE_VERSION = 1;

export interface BundleAuthor {
  key_id: string;
  /** Base64 SPKI DER of the Ed25519 public key; key_id is derived from it. */
  public_key: string;
  label: string | null;
}

/** The author's signature over {store_id, key, version, content_digest, author}. */
export interface RecordSignature {
  store_id: string;
  version: number;
  author: string;
  signature: string;
}

/** The memory fields a bundle record carries, in the order it writes them (bookkeeping of this store is left out). */
const RECORD_FIELDS = [
  ...CONTENT_FIELDS,
  'content_digest',
  'status',
  'status_reason',
  'superseded_by',
  'supersedes',
  'provenance',
  'valid_until',
  'recorded_at',
] as const satisfies readonly (keyof Memory)[];

export type BundleRecord = Pick<Memory, (typeof RECORD_FIELDS)[number]> & { signed: RecordSignature };

export interface BundleFilter {
  types: MemoryType[];
  statuses: Status[];
  bases: Basis[];
}

export interface Bundle {
  format: typeof BUNDLE_FORMAT;
  version: typeof BUNDLE_VERSION;
  created_at: string;
  store_id: string;
  filter: BundleFilter;
  authors: BundleAuthor[];
  records: BundleRecord[];
  /** key_id of the exporter, one of `authors`. */
  signer: string;
  /** Base64 Ed25519 signature by `signer` over canonical JSON of every other field. */
  signature: string;
}

/** A memory version as a bundle record, with the signature its author made where it was written. */
export function bundleRecordOf(memory: Memory, storeId: string): BundleRecord {
  const signed: RecordSignature = memory.origin
    ? {
        store_id: memory.origin.store_id,
        version: memory.origin.version,
        author: memory.author!,
        signature: memory.origin.signature,
      }
    : { store_id: storeId, version: memory.version, author: memory.author!, signature: memory.signature! };
  const fields = Object.fromEntries(RECORD_FIELDS.map((name) => [name, memory[name]])) as Pick<
    Memory,
    (typeof RECORD_FIELDS)[number]
  >;
  return { ...fields, signed };
}

export function signBundle(unsigned: Omit<Bundle, 'signature'>, signer: Signer): Bundle {
  return { ...unsigned, signature: signer.sign(canonicalJson(unsigned)) };
}

interface Problem {
  code: ErrorCode;
  message: string;
}

function refuse(problems: Problem[], what: string): never {
  const shown = problems.slice(0, 10).map((p) => p.message);
  const more = problems.length > shown.length ? `; and ${problems.length - shown.length} more` : '';
  throw new LoreError(
    problems[0].code,
    `${what} was refused, nothing was imported: ${shown.join('; ')}${more}`,
    problems[0].code === 'INTEGRITY'
      ? 'the file was changed after it was signed, or it was not made by Lore; ask its author for a fresh export'
      : problems[0].code === 'SECRET_DETECTED'
        ? 'ask its author to remove the secret and export again; Lore never stores secrets'
        : undefined,
    { problems: problems.map((p) => p.message) },
  );
}

// --- shape -------------------------------------------------------------------------------------

type Shape = (value: unknown) => boolean;
const text: Shape = (v) => typeof v === 'string';
const textOrNull: Shape = (v) => v === null || typeof v === 'string';
const textList: Shape = (v) => Array.isArray(v) && v.every(text);
const oneOf =
  (allowed: readonly string[]): Shape =>
  (v) =>
    typeof v === 'string' && allowed.includes(v);
const listOf =
  (allowed: readonly string[]): Shape =>
  (v) =>
    Array.isArray(v) && v.every(oneOf(allowed));
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const wholeNumber: Shape = (v) => typeof v === 'number' && Number.isInteger(v) && v >= 1;

function fieldProblems(where: string, value: Record<string, unknown>, fields: Record<string, Shape>): string[] {
  const problems: string[] = [];
  // Own properties only: `"__proto__"` or `"constructor"` in the JSON is an unknown field, not Object's.
  for (const name of Object.keys(value))
    if (!Object.hasOwn(fields, name)) problems.push(`${where} has an unknown field ${JSON.stringify(name)}`);
  for (const [name, shape] of Object.entries(fields)) {
    if (!Object.hasOwn(value, name)) problems.push(`${where} has no "${name}"`);
    else if (!shape(value[name])) problems.push(`${where} has a malformed "${name}"`);
  }
  return problems;
}

const PROVENANCE_FIELDS = ['source', 'client', 'agent', 'session_id', 'turn', 'evidence', 'created_at'];
const provenanceShape: Shape = (v) =>
  isObject(v) &&
  oneOf(SOURCE_KINDS)(v.source) &&
  Object.keys(v).every((k) => PROVENANCE_FIELDS.includes(k)) &&
  (v.created_at === undefined || typeof v.created_at === 'string');
// Keyed by BundleRecord's fields, so a field added to the record cannot be left unchecked.
const recordShape: Record<keyof BundleRecord, Shape> = {
  key: text,
  type: oneOf(MEMORY_TYPES),
  title: text,
  description: text,
  body: text,
  links: textList,
  anchors: textList,
  tags: textList,
  scope: oneOf(SCOPES),
  basis: oneOf(BASES),
  confidence: (v) => v === null || typeof v === 'number',
  fact_key: textOrNull,
  valid_from: text,
  review_after: textOrNull,
  content_digest: text,
  status: oneOf(STATUSES),
  status_reason: textOrNull,
  superseded_by: textOrNull,
  supersedes: textOrNull,
  provenance: provenanceShape,
  valid_until: textOrNull,
  recorded_at: text,
  signed: isObject,
};
const signedShape: Record<string, Shape> = { store_id: text, version: wholeNumber, author: text, signature: text };
const filterShape: Record<string, Shape> = {
  types: listOf(MEMORY_TYPES),
  statuses: listOf(STATUSES),
  bases: listOf(BASES),
};
const authorShape: Record<string, Shape> = { key_id: text, public_key: text, label: textOrNull };
const topShape: Record<string, Shape> = {
  format: text,
  version: (v) => typeof v === 'number',
  created_at: text,
  store_id: text,
  filter: isObject,
  authors: (v) => Array.isArray(v) && v.every(isObject),
  records: (v) => Array.isArray(v) && v.every(isObject),
  signer: text,
  signature: text,
};

/** The largest bundle text read (about 3,000 records at every limit; far more in practice). */
export const MAX_BUNDLE_CHARS = 64 * 1024 * 1024;

function shapeOf(input: unknown, what: string): Bundle {
  let value = input;
  if (typeof input === 'string') {
    if (input.length > MAX_BUNDLE_CHARS) {
      throw new LoreError(
        'LIMIT_EXCEEDED',
        `${what} is ${input.length} characters; the limit is ${MAX_BUNDLE_CHARS} (64 MiB)`,
        'export fewer records per bundle (--type, --status, --basis)',
      );
    }
    try {
      value = JSON.parse(input);
    } catch (error) {
      throw new LoreError(
        'INVALID_INPUT',
        `${what} is not JSON (${(error as Error).message})`,
        'give the file `lore export` wrote, unchanged',
      );
    }
  }
  if (!isObject(value) || value.format !== BUNDLE_FORMAT) {
    throw new LoreError(
      'INVALID_INPUT',
      `${what} is not a Lore bundle (its "format" is not "${BUNDLE_FORMAT}")`,
      'give the file `lore export` wrote',
    );
  }
  if (value.version !== BUNDLE_VERSION) {
    throw new LoreError(
      'INVALID_INPUT',
      `${what} is bundle format version ${JSON.stringify(value.version)}; this Lore reads version ${BUNDLE_VERSION}`,
      'import it with a Lore that reads that version, or export again with this one',
    );
  }
  const problems = fieldProblems(what, value, topShape);
  if (!problems.length) {
    problems.push(...fieldProblems('its filter', value.filter as Record<string, unknown>, filterShape));
    (value.authors as Record<string, unknown>[]).forEach((a, i) =>
      problems.push(...fieldProblems(`author ${i + 1}`, a, authorShape)),
    );
    (value.records as Record<string, unknown>[]).forEach((r, i) => {
      const name = `record ${typeof r.key === 'string' ? r.key : i + 1}`;
      problems.push(...fieldProblems(name, r, recordShape));
      if (isObject(r.signed)) problems.push(...fieldProblems(`${name} signature block`, r.signed, signedShape));
    });
  }
  if (problems.length)
    refuse(
      problems.map((message) => ({ code: 'INVALID_INPUT', message })),
      what,
    );
  return value as unknown as Bundle;
}

// --- verification ------------------------------------------------------------------------------

function textProblem(check: () => unknown, where: string): Problem | null {
  try {
    check();
    return null;
  } catch (error) {
    if (!isLoreError(error)) throw error;
    return { code: error.code, message: `${where}: ${error.message}` };
  }
}

function isLoreDate(value: string): boolean {
  try {
    return requireDate('date', value) === value;
  } catch {
    return false;
  }
}

/** Limits and secret rules, exactly as `remember` applies them. */
function contentProblem(record: BundleRecord): Problem | null {
  try {
    parseKey(record.key);
    const p = record.provenance;
    // valid_until is checked below: a supersession may close the interval where it began.
    validateRemember(toRememberInput(record, { valid_until: undefined }));
    // The fields outside the content digest are stored as they arrive, so they get the limits,
    // date checks and secret rules a local write gives them.
    if (record.status_reason !== null)
      requireText('status_reason', record.status_reason, LIMITS.reasonChars, { allowEmpty: true });
    for (const [field, value] of [
      ['valid_until', record.valid_until],
      ['recorded_at', record.recorded_at],
      ['provenance.created_at', p.created_at ?? null],
    ] as const) {
      // The value is not echoed: whatever it holds is refused, not repeated into a log.
      if (value !== null && !isLoreDate(value))
        throw invalid(`${field} is not a date as Lore writes them (such as 2026-03-01T12:00:00.000Z)`);
    }
    if (record.superseded_by !== null) parseKey(record.superseded_by);
    if (record.supersedes !== null) parseKey(record.supersedes);
    return null;
  } catch (error) {
    if (!isLoreError(error)) throw error;
    return { code: error.code, message: `record ${record.key}: ${error.message}` };
  }
}

/**
 * Parses and checks a bundle (text or parsed JSON). Throws one error listing every problem found;
 * returns only a bundle whose every record, and the whole, verify.
 */
export function readBundle(input: unknown, what = 'the bundle'): Bundle {
  const bundle = shapeOf(input, what);
  const problems: Problem[] = [];
  const authorsById = new Map<string, BundleAuthor>();
  for (const author of bundle.authors) {
    // A label is stored and shown by `lore trust list`: it gets the limit and secret rules of any text.
    const badLabel =
      author.label === null
        ? null
        : textProblem(() => requireText('label', author.label, 120, { allowEmpty: true }), `author ${author.key_id}`);
    if (badLabel) problems.push(badLabel);
    else if (!isEd25519PublicKey(author.public_key))
      problems.push({
        code: 'INTEGRITY',
        message: `author ${author.key_id} has a public key that is not an Ed25519 key`,
      });
    else if (keyIdOf(author.public_key) !== author.key_id)
      problems.push({
        code: 'INTEGRITY',
        message:
          `author ${author.key_id} does not match its public key (its key ` +
          `id would be ${keyIdOf(author.public_key)})`,
      });
    else authorsById.set(author.key_id, author);
  }
  const { signature, ...unsigned } = bundle;
  const exporter = authorsById.get(bundle.signer);
  if (!exporter) problems.push({ code: 'INTEGRITY', message: `its signer ${bundle.signer} is not among its authors` });
  else if (!verifyPayload(exporter.public_key, canonicalJson(unsigned), signature)) {
    problems.push({
      code: 'INTEGRITY',
      message:
        `the bundle's signature by ${bundle.signer} does not match its ` +
        `contents (it was changed after it was signed)`,
    });
  }
  const seen = new Set<string>();
  for (const record of bundle.records) {
    const name = `record ${record.key}`;
    if (seen.has(record.key)) problems.push({ code: 'INVALID_INPUT', message: `${name} appears more than once` });
    seen.add(record.key);
    const invalidContent = contentProblem(record);
    if (invalidContent) {
      problems.push(invalidContent);
      continue;
    }
    if (contentDigest(record) !== record.content_digest) {
      problems.push({
        code: 'INTEGRITY',
        message: `${name}: its content was changed after it was signed (the content digest does not match)`,
      });
      continue;
    }
    const { signed } = record;
    if (!signed.signature) {
      problems.push({ code: 'INTEGRITY', message: `${name}: its author's signature is missing` });
      continue;
    }
    const author = authorsById.get(signed.author);
    if (!author) {
      problems.push({
        code: 'INTEGRITY',
        message: `${name}: its author ${signed.author} is not among the bundle's authors`,
      });
      continue;
    }
    const payload = signingPayload(signed.store_id, {
      key: record.key,
      version: signed.version,
      content_digest: record.content_digest,
      author: signed.author,
    });
    if (!verifyPayload(author.public_key, payload, signed.signature)) {
      problems.push({
        code: 'INTEGRITY',
        message:
          `${name}: its author's signature does not match its content, key, ` +
          `version, store id or author (it was altered or re-attributed)`,
      });
    }
  }
  if (problems.length) refuse(problems, what);
  return bundle;
}

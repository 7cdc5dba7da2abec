#!/usr/bin/env node
// An independent verifier of a Lore bundle or `.lore/` record file. It imports nothing from Lore —
// only node:crypto and node:fs — and follows docs/bundle.md: format and version, author key ids,
// the exporter's signature, and each record's content digest and author signature. (Lore's own
// import also applies its limits and secret rules; those are policy, not verification.)
//
//   node scripts/verifyBundle.mjs FILE
//
// Prints {"ok","records","signer","problems"} and exits 0 when everything verifies, 1 when not.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';

const CONTENT_FIELDS = [
  'key',
  'type',
  'title',
  'description',
  'body',
  'links',
  'anchors',
  'tags',
  'scope',
  'basis',
  'confidence',
  'fact_key',
  'valid_from',
  'review_after',
];

function canonical(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = Object.keys(value)
    .filter((k) => value[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
}

const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');

function signatureHolds(publicKey, message, signature) {
  try {
    const key = createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
    return (
      key.asymmetricKeyType === 'ed25519' &&
      verify(null, Buffer.from(message, 'utf8'), key, Buffer.from(signature, 'base64'))
    );
  } catch {
    return false;
  }
}

function check(text) {
  let bundle;
  try {
    bundle = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [`not JSON: ${error.message}`] };
  }
  if (bundle?.format !== 'lore-bundle') return { ok: false, problems: ['not a Lore bundle'] };
  if (bundle.version !== 1) return { ok: false, problems: [`format version ${bundle.version}; this verifier reads 1`] };
  const problems = [];
  const authors = new Map();
  for (const author of bundle.authors ?? []) {
    if (`ed25519:${sha256(author.public_key).slice(0, 16)}` !== author.key_id)
      problems.push(`author ${author.key_id} does not match its public key`);
    else authors.set(author.key_id, author.public_key);
  }
  const { signature, ...unsigned } = bundle;
  if (!authors.has(bundle.signer) || !signatureHolds(authors.get(bundle.signer), canonical(unsigned), signature))
    problems.push(`the bundle's signature by ${bundle.signer} does not hold`);
  const seen = new Set();
  for (const record of bundle.records ?? []) {
    if (seen.has(record.key)) problems.push(`record ${record.key} appears twice`);
    seen.add(record.key);
    const content = Object.fromEntries(CONTENT_FIELDS.map((f) => [f, record[f]]));
    if (sha256(canonical(content)) !== record.content_digest) {
      problems.push(`record ${record.key}: content digest does not match`);
      continue;
    }
    const s = record.signed ?? {};
    const payload = canonical({
      store_id: s.store_id,
      key: record.key,
      version: s.version,
      content_digest: record.content_digest,
      author: s.author,
    });
    if (!s.signature || !authors.has(s.author) || !signatureHolds(authors.get(s.author), payload, s.signature))
      problems.push(`record ${record.key}: its author's signature does not hold`);
  }
  return { ok: problems.length === 0, records: (bundle.records ?? []).length, signer: bundle.signer, problems };
}

const [file] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node scripts/verifyBundle.mjs FILE\n');
  process.exit(2);
}
const verdict = check(readFileSync(file, 'utf8'));
process.stdout.write(JSON.stringify(verdict) + '\n');
process.exit(verdict.ok ? 0 : 1);

// The model file's sha256, which goes into the model id stored with every vector. Hashing a
// 20-90 MB file on every start costs more than loading it, so the digest is kept in a small JSON
// file keyed by the model file's path, size and mtime: a file that changes in place gets a new
// size or mtime and is hashed again. A cache that cannot be read or written only costs a hash.

import { createHash } from 'node:crypto';
import { createReadStream, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

interface Entry {
  size: number;
  mtimeMs: number;
  sha256: string;
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function readCache(cacheFile: string): Record<string, Entry> {
  try {
    const parsed = JSON.parse(readFileSync(cacheFile, 'utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, Entry>)
      : {};
  } catch {
    return {};
  }
}

/**
 * The file's sha256 (hex): from `cacheFile` when its size and mtime are the ones recorded, else hashed and recorded.
 */
export async function modelDigest(
  file: string,
  cacheFile: string | undefined,
): Promise<{ sha256: string; hashed: boolean }> {
  const path = resolve(file);
  if (!cacheFile) return { sha256: await sha256(path), hashed: true };
  const { size, mtimeMs } = statSync(path);
  const cache = readCache(cacheFile);
  const seen = cache[path];
  if (seen && seen.size === size && seen.mtimeMs === mtimeMs && /^[0-9a-f]{64}$/.test(seen.sha256))
    return { sha256: seen.sha256, hashed: false };
  const digest = await sha256(path);
  // Hashed while it changed: not recorded, so the next start hashes again.
  const after = statSync(path);
  if (after.size === size && after.mtimeMs === mtimeMs) {
    try {
      mkdirSync(dirname(cacheFile), { recursive: true });
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(
        tmp,
        JSON.stringify({ ...readCache(cacheFile), [path]: { size, mtimeMs, sha256: digest } }, null, 1),
      );
      renameSync(tmp, cacheFile);
    } catch {
      // A read-only data directory: every start hashes, nothing else changes.
    }
  }
  return { sha256: digest, hashed: true };
}

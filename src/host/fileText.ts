// What a workspace file's bytes are as text, the same for the indexer, drift and read_file: a
// file with a NUL byte is binary (no text), and one past the size cap — it may have grown since
// it was listed — is not read as text either, so no scan ever runs past the cap. Also a file's
// first bytes, which tell a script (`#!`) kept without an extension.

import { closeSync, openSync, readSync } from 'node:fs';

export function fileText(bytes: Buffer, maxBytes: number): string | null {
  if (bytes.length > maxBytes || bytes.includes(0)) return null;
  return bytes.toString('utf8');
}

/** A file's first two bytes as text ('' when unreadable). */
export function fileHead(absolute: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(absolute, 'r');
    const bytes = Buffer.alloc(2);
    return bytes.subarray(0, readSync(fd, bytes, 0, 2, 0)).toString('latin1');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

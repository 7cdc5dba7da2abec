// What a workspace file's bytes are as text, the same for the indexer, drift and read_file: a
// file with a NUL byte is binary (no text), and one past the size cap — it may have grown since
// it was listed — is not read as text either, so no scan ever runs past the cap.

export function fileText(bytes: Buffer, maxBytes: number): string | null {
  if (bytes.length > maxBytes || bytes.includes(0)) return null;
  return bytes.toString('utf8');
}

// Whether drift reads a file's text at all: never a secret-bearing file's, never one past the index's
// default cap. It lives in the composition layer because the rule is the index's (its cap, its secret
// files) applied to drift: the host's disk reader asks it, and the engine asks it of every text the
// index hands drift, so drift itself never imports indexing.

import { MAX_INDEXED_BYTES } from './indexing/discovery';
import { isSecretFile } from './indexing/secretFiles';

export function driftReadsText(path: string, bytes: number): boolean {
  return bytes <= MAX_INDEXED_BYTES && !isSecretFile(path);
}

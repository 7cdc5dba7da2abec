// This machine's Ed25519 signing key: created once in the user's Lore directory (never the repo),
// in a 0600 file inside a 0700 folder. Records written here are signed with it.

import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LoreError } from '../engine';
import { keyIdOf } from '../engine/record/integrity';
import type { Signer } from '../engine/record/signatures';

interface KeyFile {
  key_id: string;
  public_key: string;
  private_key: string;
  created_at: string;
}

export function machineKeyPath(home: string): string {
  return join(home, 'keys', 'machine-ed25519.json');
}

export function loadMachineSigner(home: string): Signer {
  const path = machineKeyPath(home);
  let file: KeyFile;
  try {
    file = JSON.parse(readFileSync(path, 'utf8')) as KeyFile;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new LoreError(
        'STORE_UNAVAILABLE',
        `cannot read this machine's signing key at ${path}`,
        'restore the file or move it aside to create a new key (records it signed stay verifiable)',
      );
    }
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const der = publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
    file = {
      key_id: keyIdOf(der),
      public_key: der,
      private_key: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
      created_at: new Date().toISOString(),
    };
    mkdirSync(join(home, 'keys'), { recursive: true, mode: 0o700 });
    try {
      writeFileSync(path, JSON.stringify(file, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
    } catch (raced) {
      // Another Lore process created the key first: use that one.
      if ((raced as NodeJS.ErrnoException).code === 'EEXIST') return loadMachineSigner(home);
      throw raced;
    }
  }
  try {
    chmodSync(path, 0o600);
  } catch (error) {
    // On a read-only disk the mode cannot be changed (nor, by anyone, the key): the store is read there.
    if ((error as NodeJS.ErrnoException).code !== 'EROFS') throw error;
  }
  const privateKey = createPrivateKey({ key: Buffer.from(file.private_key, 'base64'), format: 'der', type: 'pkcs8' });
  return {
    keyId: file.key_id,
    publicKey: file.public_key,
    sign: (message) => sign(null, Buffer.from(message, 'utf8'), privateKey).toString('base64'),
  };
}

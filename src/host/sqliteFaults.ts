// What a failure of the disk under the store means to a person. SQLite says "database or disk is
// full" (SQLITE_FULL: the file layer maps ENOSPC to it, scripts/patchSqliteWasm.mjs); a file Lore
// writes itself says ENOSPC. Both become one NO_SPACE error naming the folder and what to do; the
// store was not changed (the transaction rolled back) and the owner carries on once there is room.
// A read-only file system (EROFS) is said the same way for writes.

import { LoreError, isLoreError } from '../engine';

const FULL = /database or disk is full|ENOSPC|no space left on device/i;
const READ_ONLY = /EROFS|read-only file system|attempt to write a readonly database/i;

export function noSpace(folder: string): LoreError {
  return new LoreError(
    'NO_SPACE',
    `no space left on the disk that holds Lore's store (${folder}); nothing was saved`,
    'free some space on that disk and try again; a running Lore carries on by itself once there is room',
  );
}

export function readOnlyStore(folder: string): LoreError {
  return new LoreError(
    'STORE_READ_ONLY',
    `Lore's data folder ${folder} is read-only: the store can be read, not changed`,
    'make the folder writable (or set LORE_HOME to a writable one) to save',
  );
}

/** The error to report for `error`, a failure while using the store in `folder`: translated when the disk caused it. */
export function diskFault(error: unknown, folder: string): unknown {
  if (isLoreError(error)) return error;
  const message = `${(error as NodeJS.ErrnoException)?.code ?? ''} ${(error as Error)?.message ?? String(error)}`;
  if (FULL.test(message)) return noSpace(folder);
  if (READ_ONLY.test(message)) return readOnlyStore(folder);
  return error;
}

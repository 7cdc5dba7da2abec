// Applies Lore's crash-recovery fix to node-sqlite3-wasm (pinned at 0.8.60); runs on every install.
//
// Why: the package's VFS answers xCheckReservedLock by looking for `<db>.lock`. After a crash the
// next process takes that lock itself before SQLite asks whether a hot journal needs rolling back,
// sees "its own" lock, reports the database as reserved by someone else, and the hot journal is
// never rolled back: the killed transaction's pages stay half-written. The fix answers
// "not reserved" when the lock held is this connection's own.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const file = require.resolve('node-sqlite3-wasm');
const original = 'function _nodejsCheckReservedLock(fi,outResult){try{';
const patched =
  'function _nodejsCheckReservedLock(fi,outResult){if(_isLocked(fi)){setValue(outResult,0,"i32");return SQLITE_OK}try{';

const source = readFileSync(file, 'utf8');
if (source.includes(patched)) {
  console.log('node-sqlite3-wasm: crash-recovery fix already applied');
} else if (source.split(original).length === 2) {
  writeFileSync(file, source.replace(original, patched));
  console.log('node-sqlite3-wasm: crash-recovery fix applied');
} else {
  console.error(`node-sqlite3-wasm: cannot apply the crash-recovery fix to ${file}; is the pinned version installed?`);
  process.exit(1);
}

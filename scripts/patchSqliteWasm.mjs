// Applies Lore's fixes to node-sqlite3-wasm's file layer (pinned at 0.8.60); runs on every install.
//
// 1. Crash recovery. The package's VFS answers xCheckReservedLock by looking for `<db>.lock`. After
//    a crash the next process takes that lock itself before SQLite asks whether a hot journal needs
//    rolling back, sees "its own" lock, reports the database as reserved by someone else, and the hot
//    journal is never rolled back: the killed transaction's pages stay half-written. The fix answers
//    "not reserved" when the lock held is this connection's own.
// 2. A full disk. A write that fails with ENOSPC, or writes short, is SQLITE_FULL ("database or disk
//    is full", as SQLite's own unix VFS says), not a generic I/O error: Lore tells the person to free
//    space (host/sqliteFaults.ts) instead of reporting an unexplained failure.
// 3. A read-only data directory. A shared (read) lock is the `<db>.lock` folder, which cannot be made
//    on a read-only file system; no process can write there either, so a read needs no lock and is
//    granted. Lore opens such a store read-only (host/openStore.ts), so no write lock is ever asked.
// 4. A lock held for the connection's life. The VFS's lock is the `<db>.lock` folder, made when a
//    statement starts and removed when it ends: a mkdir and an rmdir for every statement outside a
//    transaction, about a sixth of an owner's time under load. A store opened under Lore's owner lock
//    (no other process opens it) names its file in the set at Symbol.for('lore.sqlite.heldLocks')
//    (host/sqlite.ts): its folder stays until the connection closes. SQLite's own locking and
//    journal are unchanged; a crash leaves the folder, as a crash mid-transaction always did, and
//    the owner lock's takeover clears it (host/ownerLock.ts).
// 5. Strings bound to statements. The package copies a string into SQLite's memory with a JavaScript
//    loop over its characters, twice (its UTF-8 length, then its bytes): a bulk index binds every
//    chunk's text that way. A well-formed string of 32 characters or more is now measured and encoded
//    by Node's own UTF-8 encoder, which writes the same bytes; a short one, or one holding a lone
//    surrogate (which the package writes as three bytes of its own), goes the old way.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const file = require.resolve('node-sqlite3-wasm');

const PATCHES = [
  {
    name: 'crash recovery',
    original: 'function _nodejsCheckReservedLock(fi,outResult){try{',
    patched:
      'function _nodejsCheckReservedLock(fi,outResult){' +
      'if(_isLocked(fi)){setValue(outResult,0,"i32");return SQLITE_OK}try{',
  },
  {
    name: 'full disk',
    original:
      'return bytesWritten!=bytes?SQLITE_IOERR_WRITE:SQLITE_OK}' +
      'catch{return SQLITE_IOERR_WRITE}}function _nodejs_max_path_length',
    patched:
      'return bytesWritten!=bytes?13:SQLITE_OK}' +
      'catch(err){return err.code=="ENOSPC"?13:SQLITE_IOERR_WRITE}}function _nodejs_max_path_length',
  },
  {
    name: 'read-only data directory',
    original: 'catch(err){return err.code=="EEXIST"?SQLITE_BUSY:SQLITE_IOERR_LOCK}',
    patched:
      'catch(err){if(level==1&&(err.code=="EROFS"||err.code=="EACCES"||err.code=="EPERM"))return SQLITE_OK;' +
      'if(err.code=="ENOSPC")return 13;return err.code=="EEXIST"?SQLITE_BUSY:SQLITE_IOERR_LOCK}',
  },
  {
    name: 'held lock',
    original: 'function _nodejsUnlock(fi,level){if(level==SQLITE_LOCK_NONE&&_isLocked(fi)){',
    patched:
      'function _heldLocks(){return globalThis[Symbol.for("lore.sqlite.heldLocks")]??=new Set}' +
      'function _nodejsUnlock(fi,level,closing){if(level==SQLITE_LOCK_NONE&&_isLocked(fi)' +
      '&&(closing||!_heldLocks().has(_path(fi)))){',
  },
  {
    name: 'held lock released on close',
    original: 'function _nodejsClose(fi){_nodejsUnlock(fi,SQLITE_LOCK_NONE);',
    patched: 'function _nodejsClose(fi){_nodejsUnlock(fi,SQLITE_LOCK_NONE,true);',
  },
  {
    name: 'native string encoding',
    original:
      'function stringToHeap(str){const size=lengthBytesUTF8(str)+1;const ptr=_malloc(size);' +
      'stringToUTF8(str,ptr,size);return ptr}',
    patched:
      'function stringToHeap(str){if(str.length>=32&&str.isWellFormed()){' +
      'const bytes=Buffer.byteLength(str,"utf8");const ptr=_malloc(bytes+1);' +
      'Buffer.from(HEAPU8.buffer,ptr,bytes+1).write(str,0,bytes,"utf8");HEAPU8[ptr+bytes]=0;return ptr}' +
      'const size=lengthBytesUTF8(str)+1;const ptr=_malloc(size);stringToUTF8(str,ptr,size);return ptr}',
  },
];

let source = readFileSync(file, 'utf8');
for (const { name, original, patched } of PATCHES) {
  if (source.includes(patched)) {
    console.log(`node-sqlite3-wasm: ${name} fix already applied`);
  } else if (source.split(original).length === 2) {
    source = source.replace(original, patched);
    console.log(`node-sqlite3-wasm: ${name} fix applied`);
  } else {
    console.error(`node-sqlite3-wasm: cannot apply the ${name} fix to ${file}; is the pinned version installed?`);
    process.exit(1);
  }
}
writeFileSync(file, source);

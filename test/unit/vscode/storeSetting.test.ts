// The `lore.store.url` setting (issue 28): the editor hands a shared PostgreSQL store to the
// `lore serve` process it starts as LORE_STORE, the variable the CLI reads; a value that is not a
// postgresql:// URL is refused in the setting's own terms, naming only its scheme (never a
// password), and the SQLite store is used.

import { strict as assert } from 'node:assert';
import { ownerEnv } from '../../../src/vscode/embedding';
import { readSettings, type SettingKey } from '../../../src/vscode/settings';

const read = (values: Partial<Record<SettingKey, unknown>>) => readSettings((key) => values[key]);

describe('the lore.store.url setting', () => {
  it('is passed to the owner process as LORE_STORE, password and all, only in its environment', () => {
    const url = 'postgresql://lore_app:s3cret@db.internal:5432/lore?sslmode=verify-full';
    const { settings, problems } = read({ 'store.url': url });
    assert.deepEqual(problems, []);
    assert.equal(ownerEnv(settings, '/data', {}).LORE_STORE, url);
  });

  it('unset: the owner uses the SQLite store, or the LORE_STORE the editor was started with', () => {
    const { settings } = read({});
    assert.equal(settings.store.url, null);
    assert.equal(ownerEnv(settings, '/data', {}).LORE_STORE, undefined);
    assert.equal(ownerEnv(settings, '/data', { LORE_STORE: 'postgres://h/db' }).LORE_STORE, 'postgres://h/db');
  });

  it('refuses a value that is not a postgresql:// URL, naming its scheme and never its password', () => {
    const { settings, problems } = read({ 'store.url': 'mysql://root:hunter2@db.internal/lore' });
    assert.equal(settings.store.url, null);
    assert.deepEqual(problems, [
      'lore.store.url is not a postgresql:// URL (it begins "mysql:"); the SQLite store in the data directory is used',
    ]);
    assert.ok(!problems.join('').includes('hunter2'));
    assert.equal(ownerEnv(settings, '/data', {}).LORE_STORE, undefined);
  });
});

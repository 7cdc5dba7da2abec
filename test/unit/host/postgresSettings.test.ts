// Which store Lore uses and how a PostgreSQL URL is read: the standard URL form, libpq's PG*
// variables for what it leaves out, sslmode in libpq's meaning, and no password in any label or
// error. (Connecting is tested against a real server in test/e2e/postgresStore.test.ts.)

import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LoreError } from '../../../src/engine';
import { parsePostgresSettings, redactUrl } from '../../../src/host/store/postgres/connectionSettings';
import { repositoryIdentity } from '../../../src/host/store/postgres/repository';
import { chooseStore } from '../../../src/host/store/storeSetting';
import { tempDir } from '../../support/store';

function refusal(work: () => unknown): LoreError {
  try {
    work();
  } catch (error) {
    assert.ok(error instanceof LoreError, String(error));
    return error;
  }
  assert.fail('expected a refusal');
}

describe('PostgreSQL store settings', () => {
  it('without --store or LORE_STORE, the store is the SQLite default', () => {
    assert.deepEqual(chooseStore(undefined, {}), { kind: 'sqlite' });
    assert.deepEqual(chooseStore('', { LORE_STORE: '  ' }), { kind: 'sqlite' });
  });

  it('--store wins over LORE_STORE', () => {
    const chosen = chooseStore('postgresql://a@flag-host/flagdb', { LORE_STORE: 'postgresql://b@env-host/envdb' });
    assert.equal(chosen.kind === 'postgresql' && chosen.settings.label, 'flag-host:5432/flagdb');
  });

  it('refuses a store setting that is not a postgresql:// URL without echoing it', () => {
    const error = refusal(() => chooseStore(undefined, { LORE_STORE: 'mysql://root:hunter2@db/lore' }));
    assert.match(error.message, /LORE_STORE is not a postgresql:\/\/ URL/);
    assert.ok(!error.message.includes('hunter2'));
  });

  it('reads user, password, host, port and database from the URL, and labels it host:port/database', () => {
    const s = parsePostgresSettings('postgresql://lore_app:s3cr%40t@db.internal:6432/memory?sslmode=disable');
    assert.equal(s.user, 'lore_app');
    assert.equal(s.password, 's3cr@t');
    assert.equal(s.host, 'db.internal');
    assert.equal(s.port, 6432);
    assert.equal(s.database, 'memory');
    assert.equal(s.label, 'db.internal:6432/memory');
    assert.ok(!s.label.includes('s3cr'));
  });

  it('fills what the URL leaves out from the PG* variables, as psql does; the URL wins where it speaks', () => {
    const env = { PGHOST: 'env-host', PGPORT: '5433', PGUSER: 'env-user', PGPASSWORD: 'env-pw', PGDATABASE: 'envdb' };
    const bare = parsePostgresSettings('postgresql://', env);
    assert.deepEqual(
      [bare.host, bare.port, bare.user, bare.password, bare.database],
      ['env-host', 5433, 'env-user', 'env-pw', 'envdb'],
    );
    const given = parsePostgresSettings('postgres://url-user@url-host/urldb', env);
    assert.deepEqual(
      [given.host, given.port, given.user, given.password, given.database],
      ['url-host', 5433, 'url-user', 'env-pw', 'urldb'],
    );
  });

  it('defaults like libpq: localhost, 5432, the database named after the user, sslmode prefer', () => {
    const s = parsePostgresSettings('postgresql:///?user=someone', {});
    assert.deepEqual([s.host, s.port, s.database, s.sslMode], ['localhost', 5432, 'someone', 'prefer']);
  });

  it('honours sslmode from the URL or PGSSLMODE, in libpq meaning', () => {
    assert.equal(parsePostgresSettings('postgresql://h/db?sslmode=disable').sslMode, 'disable');
    assert.equal(parsePostgresSettings('postgresql://h/db', { PGSSLMODE: 'require' }).sslMode, 'require');
    const required = parsePostgresSettings('postgresql://h/db?sslmode=require');
    assert.equal(required.tls.rejectUnauthorized, false, 'require encrypts without checking the certificate');
    const full = parsePostgresSettings('postgresql://h/db?sslmode=verify-full');
    assert.equal(full.tls.rejectUnauthorized, true);
    assert.equal(full.tls.checkServerIdentity, undefined, 'verify-full checks the host name');
    const ca = join(tempDir(), 'root.crt');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    const verifyCa = parsePostgresSettings(`postgresql://h/db?sslmode=verify-ca&sslrootcert=${encodeURIComponent(ca)}`);
    assert.equal(verifyCa.tls.rejectUnauthorized, true);
    assert.equal(typeof verifyCa.tls.checkServerIdentity, 'function', 'verify-ca checks the chain, not the name');
    assert.match(String(verifyCa.tls.ca), /BEGIN CERTIFICATE/);
    assert.match(refusal(() => parsePostgresSettings('postgresql://h/db?sslmode=verify-ca')).message, /sslrootcert/);
    assert.match(refusal(() => parsePostgresSettings('postgresql://h/db?sslmode=always')).message, /sslmode "always"/);
  });

  it('never puts the password in an error about the URL', () => {
    for (const url of [
      'postgresql://u:hunter2@h:99999/db',
      'postgresql://u:hunter2@h/db?sslmode=bogus',
      'postgresql://u:hunter2@h/db?colour=blue',
      'postgresql://u:hunter2@h/db?connect_timeout=soon',
      'postgresql://u:hunter2@[bad/db',
    ]) {
      const error = refusal(() => parsePostgresSettings(url));
      assert.ok(!JSON.stringify(error.toJSON()).includes('hunter2'), `${error.message} shows the password`);
    }
    assert.equal(redactUrl('see postgresql://u:p@ss@h/db?password=x2'), 'see postgresql://u:***@h/db?password=***');
  });

  it('names a repository by its remote, the same for its SSH and HTTPS forms, never with credentials', () => {
    const one = 'github.com/team/service';
    assert.equal(repositoryIdentity('git@github.com:team/service.git'), one);
    assert.equal(repositoryIdentity('https://github.com/team/service'), one);
    assert.equal(repositoryIdentity('https://ci:ghp_token123@GitHub.com/team/service.git/'), one);
    assert.equal(repositoryIdentity('ssh://git@github.com:22/team/service.git'), one);
    assert.match(refusal(() => repositoryIdentity('file:///srv/repo')).message, /remote URL/);
  });
});

import { strict as assert } from 'node:assert';
import { findSecrets, SECRET_RULES } from '../../../../src/engine/model/secretRules';
import { redact } from '../../../../src/engine/indexing/redact';

/**
 * The quantifiers of a pattern, each with whether it is bounded and whether what it repeats holds
 * a quantifier itself. Enough of a parser for the rules' sources: escapes, classes, groups.
 */
function quantifiers(source: string): Array<{ at: number; text: string; bounded: boolean; nested: boolean }> {
  const found: Array<{ at: number; text: string; bounded: boolean; nested: boolean }> = [];
  const groups: Array<{ hasQuantifier: boolean }> = [];
  let lastAtom: 'group' | 'other' = 'other';
  let lastGroupHadQuantifier = false;
  const mark = () => groups.forEach((g) => (g.hasQuantifier = true));
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      lastAtom = 'other';
    } else if (c === '[') {
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
      lastAtom = 'other';
    } else if (c === '(') {
      groups.push({ hasQuantifier: false });
      if (source[i + 1] === '?') i += source[i + 2] === '<' && /[=!]/.test(source[i + 3]) ? 3 : 2;
    } else if (c === ')') {
      lastGroupHadQuantifier = groups.pop()!.hasQuantifier;
      lastAtom = 'group';
    } else if (c === '*' || c === '+' || c === '?' || c === '{') {
      const brace = c === '{' ? /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i)) : null;
      const text = brace ? brace[0] : c;
      const bounded = c === '?' || (brace !== null && (brace[2] === undefined || brace[3] !== ''));
      found.push({ at: i, text, bounded, nested: lastAtom === 'group' && lastGroupHadQuantifier && text !== '?' });
      if (text !== '?') mark();
      if (brace) i += brace[0].length - 1;
      if (source[i + 1] === '?') i++; // lazy
      lastAtom = 'other';
    } else lastAtom = 'other';
  }
  return found;
}

const KEY_BODY = [
  'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun',
  'VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK',
  'LxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo',
];
const KEY = ['-----BEGIN RSA PRIVATE KEY-----', ...KEY_BODY, '-----END RSA PRIVATE KEY-----'].join('\n');

function assertNoKeyMaterial(text: string): void {
  for (const line of [...KEY_BODY, '-----END RSA PRIVATE KEY-----', '-----BEGIN'])
    assert.ok(!text.includes(line), `${line} is still in:\n${text}`);
}

describe('secret rules', () => {
  describe('run in time linear in the text', () => {
    it('bound every quantifier and nest none, so no rule backtracks more than a constant per character', () => {
      const offenders = SECRET_RULES.flatMap((rule) =>
        quantifiers(rule.pattern.source)
          .filter((q) => !q.bounded || q.nested)
          .map((q) => `${rule.id}: ${q.text} at ${q.at}${q.nested ? ' (nested)' : ''}`),
      );
      assert.deepEqual(offenders, []);
    });

    it('the shape check itself sees an unbounded or a nested quantifier', () => {
      assert.deepEqual(
        quantifiers('[a-z][a-z0-9.-]*:').map((q) => q.bounded),
        [false],
      );
      assert.deepEqual(
        quantifiers('(?:a{1,3}b){0,9}').map((q) => q.nested),
        [false, true],
      );
      assert.deepEqual(
        quantifiers('x{3,}').map((q) => q.bounded),
        [false],
      );
      assert.deepEqual(
        quantifiers('(?<![a-z])y{2,8}').map((q) => [q.bounded, q.nested]),
        [[true, false]],
      );
    });

    it('finds a secret at the end of adversarial runs (`a.a.a.…`, `-----BEGIN` repeated) like anywhere else', () => {
      for (const run of ['a.', 'a:', 'a-', '-----BEGIN ', 'a://', 'eyJ', 'password=']) {
        const text = `${run.repeat(4000)} ghp_${'a1B2'.repeat(9)}`;
        assert.deepEqual(
          findSecrets(text)
            .map((f) => f.rule)
            .filter((r) => r === 'github-token'),
          ['github-token'],
          run,
        );
      }
    });
  });

  describe('private keys', () => {
    it('redact the whole block: header, base64 body and END line, keeping the line count', () => {
      const text = `before\n${KEY}\nafter`;
      const out = redact(text);
      assertNoKeyMaterial(out.text);
      assert.equal(out.redactions, 1);
      assert.equal(out.text.split('\n').length, text.split('\n').length);
      assert.match(out.text, /^before\n\[REDACTED:private-key\]\n+after$/);
    });

    it('redact a block indented in YAML and a one-line block inside JSON', () => {
      const yaml = `tls:\n  key: |\n${KEY.split('\n')
        .map((l) => `    ${l}`)
        .join('\n')}\n  port: 443`;
      assertNoKeyMaterial(redact(yaml).text);
      assert.match(redact(yaml).text, /port: 443/);
      const json = `{"private_key": "${KEY.split('\n').join('\\n')}\\n", "client_email": "x@y.z"}`;
      assertNoKeyMaterial(redact(json).text);
      assert.match(redact(json).text, /client_email/);
    });

    it('redact a key body without its header: the lines before an END line, or base64 opening like a key', () => {
      const cut = `${KEY_BODY.slice(1).join('\n')}\n-----END RSA PRIVATE KEY-----\nafter`;
      assertNoKeyMaterial(redact(cut).text);
      assert.match(redact(cut).text, /after$/);
      const headless = `the key:\n${KEY_BODY.join('\n')}\nnext line`;
      assertNoKeyMaterial(redact(headless).text);
      assert.match(redact(headless).text, /^the key:\n.*next line$/s);
    });

    it('leave a certificate (public) alone', () => {
      const cert =
        '-----BEGIN ' +
        'CERTIFICATE-----\nMIIDXTCCAkWgAwIBAgIJAJC1HiIAZAiIMA0GCSqGSIb3DQEBBQUAMEUxCzAJBgNV\n-----END ' +
        'CERTIFICATE-----';
      assert.equal(redact(cert).redactions, 0);
    });
  });

  describe('common forms', () => {
    const secrets: Array<[string, string]> = [
      ['secret-assignment', 'master_password = "correct-horse-battery"'],
      ['secret-assignment', 'secret_key = "9f8e7d6c5b4a3928"'],
      ['secret-assignment', 'DB_PASSWORD: "Pa55w0rd!Pa55"'],
      ['secret-env-assignment', 'DB_PASSWORD=s3cr3t-Value-99'],
      ['secret-env-assignment', 'export STRIPE_API_KEY=abcd1234efgh5678'],
      ['password-in-url', 'redis://:hunter2secret@cache.internal:6379/0'],
      ['password-in-url', 'postgres://app:hunter2secret@db.internal:5432/app'],
      ['slack-token', 'xapp-1-A0123456789-1234567890123-0123456789abcdef'],
      [
        'aws-secret-near-key-id',
        'aws_access_key_id AKIAIOSFODNN7EXAMPLE\nsecret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      ],
    ];
    for (const [rule, text] of secrets) {
      it(`${rule}: ${text.split('\n')[0]}`, () => {
        assert.ok(
          findSecrets(text).some((f) => f.rule === rule),
          `${rule} should match`,
        );
        const out = redact(text).text;
        for (const secret of [
          'correct-horse',
          '9f8e7d6c',
          'Pa55w0rd',
          's3cr3t-Value',
          'abcd1234efgh',
          'hunter2secret',
          'A0123456789',
          'wJalrXUtnFEMI',
        ]) {
          assert.ok(!out.includes(secret), `${secret} survived in ${out}`);
        }
      });
    }

    const notSecrets = [
      'Rotate the password every 90 days; the API token lives in Vault at ops/db.',
      'password: "{{ .Values.db.password }}"',
      'export DB_PASSWORD=${DB_PASSWORD}',
      'DB_PASSWORD=<your password>',
      'postgres://app:${DB_PASSWORD}@db.internal/app',
      'password_policy = "strict"',
      'see https://example.com:8080/docs for the secret_key setting',
      'commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39 fixed it',
      'ansible_ssh_private_key_file=~/.vagrant.d/insecure_private_key',
      'password_file: "/run/secrets/db-password"',
    ];
    for (const text of notSecrets) {
      it(`leaves alone: ${text}`, () => assert.deepEqual(findSecrets(text), []));
    }
  });
});

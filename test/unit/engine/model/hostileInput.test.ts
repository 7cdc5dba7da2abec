// Hostile input at the one door every save goes through (validateRemember, used by MCP, the CLI,
// bundles and session closes): secrets of 22 kinds in every text field, and NUL characters and
// lone surrogates in every text field. Each is refused with an error naming the field and never
// repeating the value; nothing is stored.

import { strict as assert } from 'node:assert';
import { LoreError, type RememberInput } from '../../../../src/engine';
import { memory, openTestStore, person, type TestStore } from '../../../support/store';

const KEY_BODY = 'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun';

/** One secret of each kind, single-line so it fits a single-line field. */
export const SECRETS: Record<string, string> = {
  'github token': `ghp_${'a1B2'.repeat(9)}`,
  'github fine-grained token': `github_pat_${'Ab3'.repeat(21)}`,
  'gitlab token': 'glpat-Zx9Yw8Vu7Ts6Rq5Po4Nm',
  'slack bot token': 'xoxb-1234567890-abcdefghij',
  'slack app token': 'xapp-1-A0123456789-1234567890123-0123456789abcdef',
  'slack webhook': 'https://hooks.slack.com/services/T0001/B0002/Xy12Zw34Vu56',
  'stripe key': `sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`,
  'openai key': `sk-proj-${'Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz1Xc'}`,
  'anthropic key': `sk-ant-${'api03-Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9L'}`,
  'google api key': 'AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY',
  'npm token': `npm_${'Zq8Wx7Vc6Bn5Ml4Kj3Hg2Fd1Sa0Po9Iu8Yt7'}`,
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  'aws access key id': 'AKIAIOSFODNN7EXAMPLE',
  'aws secret assignment': 'aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'aws secret next to its key id': 'AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'private key header': '-----BEGIN OPENSSH PRIVATE KEY-----',
  'private key body': KEY_BODY,
  'password in a url': 'postgres://app:hunter2secret@db.internal:5432/app',
  'password in a url, no user': 'redis://:hunter2secret@cache.internal:6379',
  'underscore-joined password': 'master_password = "correct-horse-battery"',
  'unquoted env assignment': 'DB_PASSWORD=s3cr3t-Value-99',
  'secret key assignment': 'secret_key = "9f8e7d6c5b4a3928"',
};

type Field = { name: string; limit: number; put: (value: string) => Partial<RememberInput> };
const FIELDS: Field[] = [
  { name: 'title', limit: 120, put: (v) => ({ title: v }) },
  { name: 'description', limit: 300, put: (v) => ({ description: v }) },
  { name: 'body', limit: 16384, put: (v) => ({ body: v }) },
  { name: 'tags[0]', limit: 40, put: (v) => ({ tags: [v] }) },
  { name: 'links[0]', limit: 120, put: (v) => ({ links: [v] }) },
  { name: 'anchors[0]', limit: 120, put: (v) => ({ anchors: [v] }) },
  { name: 'fact_key', limit: 120, put: (v) => ({ fact_key: v }) },
  { name: 'key', limit: 120, put: (v) => ({ key: `decision/${v}` }) },
  { name: 'provenance.agent', limit: 200, put: (v) => ({ provenance: { source: 'user', agent: v } }) },
  { name: 'provenance.session_id', limit: 200, put: (v) => ({ provenance: { source: 'user', session_id: v } }) },
  { name: 'provenance.evidence[0]', limit: 120, put: (v) => ({ provenance: { source: 'user', evidence: [v] } }) },
];

function refusal(s: TestStore, fields: Partial<RememberInput>): LoreError {
  try {
    s.engine.remember(person, memory(fields));
  } catch (error) {
    assert.ok(error instanceof LoreError, String(error));
    return error;
  }
  assert.fail(`saved ${JSON.stringify(fields)}`);
}

describe('hostile input at the save door', () => {
  let s: TestStore;
  before(() => (s = openTestStore()));
  after(() => s.cleanup());

  it(
    `refuses ${Object.keys(SECRETS).length} kinds of secret in each ` +
      `of ${FIELDS.length} text fields, naming the field, never the ` +
      `value`,
    () => {
      let tried = 0;
      for (const [kind, secret] of Object.entries(SECRETS)) {
        for (const field of FIELDS) {
          const value = field.name === 'key' ? secret : `see ${secret}`;
          const error = refusal(s, field.put(value));
          tried++;
          const fits = [...value].length + (field.name === 'key' ? 9 : 0) <= field.limit;
          assert.equal(
            error.code,
            fits ? 'SECRET_DETECTED' : 'LIMIT_EXCEEDED',
            `${kind} in ${field.name}: ${error.message}`,
          );
          assert.ok(error.message.startsWith(field.name), `${kind} in ${field.name}: ${error.message}`);
          const told = JSON.stringify(error.toJSON());
          for (const part of [secret.slice(0, 12), secret.slice(-12)])
            assert.ok(!told.includes(part), `${kind} in ${field.name} echoed: ${told}`);
        }
      }
      assert.equal(tried, 22 * 11);
      assert.equal(s.engine.stats().memories, 0);
      assert.equal(s.engine.stats().audit_events, 0);
    },
  );

  it('refuses a NUL character and a lone surrogate in each text field, naming the field', () => {
    for (const [bad, says] of [
      ['\0', /contains a NUL character/],
      ['\uD800', /contains a lone UTF-16 surrogate/],
    ] as const) {
      for (const field of FIELDS) {
        const error = refusal(s, field.put(`plain${bad}text`));
        assert.equal(error.code, 'INVALID_INPUT', `${field.name}: ${error.message}`);
        assert.ok(error.message.startsWith(field.name) && says.test(error.message), `${field.name}: ${error.message}`);
      }
    }
    assert.equal(s.engine.stats().memories, 0);
  });
});

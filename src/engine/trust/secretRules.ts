// Rules for text that looks like a secret. Lore refuses to store, embed or log such text; a
// refusal names the rule (never the match) so the person knows what to remove.
//
// Every rule runs in time linear in the text: each quantifier is bounded, none is nested, and a
// rule that opens on a repeatable class starts with a lookbehind so it is tried only where a run
// of that class begins (an unanchored `[a-z0-9.-]*` retried at every offset of `a.a.a.…` was
// quadratic). test/unit/secretRules.test.ts checks the shape of every pattern.

import { pemExtent } from './pemBlock';

export interface SecretRule {
  id: string;
  description: string;
  pattern: RegExp;
  /** Widens a match to the whole secret (a PEM block spans lines the pattern does not cover). */
  extent?: (text: string, start: number, end: number) => [number, number];
}

/** Names that carry a secret: `password`, `DB_PASSWORD`, `master_password`, `secret_key`, `api-key`… */
const SECRET_NAME =
  '(?<![A-Za-z])(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret|' +
  'private[_-]?key)' +
  // `private_key_file`, `password_path`: the name of where a secret is, not a secret.
  '(?![_-]?(?:file|path|dir|name|policy|length)(?![A-Za-z]))(?:[_-][A-Za-z0-9]{1,20})?';
/** No secret: a reference, placeholder or path (`${DB_PASSWORD}`, `<password>`, `{{ .Values.x }}`, `****`, `~/x`). */
const NOT_A_PLACEHOLDER = '(?![$<{%*(\\[~])';

// Patterns are anchored on vendor prefixes or structure, so prose that merely mentions
// "password" or "token" is not refused.
export const SECRET_RULES: readonly SecretRule[] = [
  {
    id: 'private-key',
    description: 'a PEM private key block',
    pattern: /-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----/,
    extent: pemExtent,
  },
  {
    // The body of a key whose header was cut off: its END line, or base64 that opens like a key's DER.
    id: 'private-key-body',
    description: 'the body of a PEM private key',
    // DER openings: PKCS#1 RSA, PKCS#8, encrypted PKCS#8, short PKCS#8 (EC), SEC1 EC, Ed25519, OpenSSH.
    pattern: new RegExp(
      '-----END[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----|(?<![A-Za-z0-9+])(?:MII[A-Za-z0-9+/]{3}IBA(?:AKC|DANBgkq)|' +
        'MII[A-Za-z0-9+/]{3}DBOBgkqhkiG9w0BBQ|MIG[A-Za-z0-9+/]AgEA|MHcCAQEE|MC4CAQAw|b3BlbnNzaC1rZXktdjE)',
    ),
    extent: pemExtent,
  },
  { id: 'aws-access-key-id', description: 'an AWS access key id', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/ },
  {
    id: 'aws-secret-access-key',
    description: 'an AWS secret access key assignment',
    pattern: /aws_?secret_?(?:access_?)?key["']?\s{0,8}[:=]\s{0,8}["']?[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/i,
  },
  {
    // A bare 40-character secret within a few lines after an access key id (`AKIA… wJalr…`).
    id: 'aws-secret-near-key-id',
    description: 'an AWS secret access key next to its access key id',
    pattern: /(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])(?<=(?:AKIA|ASIA)[0-9A-Z]{16}[^]{1,240})/,
  },
  {
    id: 'github-token',
    description: 'a GitHub token',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{60,255})\b/,
  },
  { id: 'gitlab-token', description: 'a GitLab token', pattern: /(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20,255}/ },
  {
    id: 'slack-token',
    description: 'a Slack token',
    pattern: /(?<![A-Za-z0-9-])(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,255}/,
  },
  {
    id: 'slack-webhook',
    description: 'a Slack webhook URL',
    pattern: /hooks\.slack\.com\/services\/T[A-Za-z0-9]{1,40}\/B[A-Za-z0-9]{1,40}\/[A-Za-z0-9]{1,80}/,
  },
  { id: 'stripe-key', description: 'a Stripe secret key', pattern: /\b(?:sk|rk)_live_[A-Za-z0-9]{20,255}\b/ },
  { id: 'openai-key', description: 'an OpenAI API key', pattern: /(?<![\w-])sk-(?:proj-)?[A-Za-z0-9_-]{32,255}/ },
  { id: 'anthropic-key', description: 'an Anthropic API key', pattern: /(?<![\w-])sk-ant-[A-Za-z0-9_-]{32,255}/ },
  { id: 'google-api-key', description: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/ },
  { id: 'npm-token', description: 'an npm token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/ },
  {
    id: 'jwt',
    description: 'a JSON Web Token',
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{10,4096}\.eyJ[A-Za-z0-9_-]{10,8192}\.[A-Za-z0-9_-]{10,4096}/,
  },
  {
    // `scheme://user:password@host` and `redis://:password@host`.
    id: 'password-in-url',
    description: 'a URL with a password in it',
    pattern: new RegExp(
      `(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{0,31}://[^\\s/:@]{0,256}:${NOT_A_PLACEHOLDER}[^\\s/@]{3,256}@[^\\s/@]{1,253}`,
      'i',
    ),
  },
  {
    id: 'secret-assignment',
    description: 'a password, secret or API key assigned a literal value',
    pattern: new RegExp(`${SECRET_NAME}["']?\\s{0,8}[:=]\\s{0,8}["']${NOT_A_PLACEHOLDER}[^"'\\s]{8,256}["']`, 'i'),
  },
  {
    // `DB_PASSWORD=s3cr3t-value` as in a .env file or a shell line: unquoted, no space around `=`.
    id: 'secret-env-assignment',
    description: 'a password, secret or API key assigned a literal value',
    pattern: new RegExp(`${SECRET_NAME}=${NOT_A_PLACEHOLDER}[^\\s"'\`;|&]{8,256}`, 'i'),
  },
];

export interface SecretFinding {
  rule: string;
  description: string;
  index: number;
  length: number;
}

const GLOBAL = new Map(SECRET_RULES.map((rule) => [rule, new RegExp(rule.pattern.source, `${rule.pattern.flags}g`)]));

export function findSecrets(text: string): SecretFinding[] {
  const findings: SecretFinding[] = [];
  for (const rule of SECRET_RULES) {
    for (const match of text.matchAll(GLOBAL.get(rule)!)) {
      const matched: [number, number] = [match.index, match.index + match[0].length];
      const [start, end] = rule.extent ? rule.extent(text, ...matched) : matched;
      findings.push({ rule: rule.id, description: rule.description, index: start, length: end - start });
    }
  }
  return findings.sort((a, b) => a.index - b.index || b.length - a.length);
}

export function firstSecret(text: string): SecretRule | undefined {
  return SECRET_RULES.find((rule) => rule.pattern.test(text));
}

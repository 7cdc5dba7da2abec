// Rules for text that looks like a secret. Lore refuses to store, embed or log such text; a
// refusal names the rule (never the match) so the person knows what to remove.
//
// Every rule runs in time linear in the text: each quantifier is bounded, none is nested, and a
// rule that opens on a repeatable class starts with a lookbehind so it is tried only where a run
// of that class begins (an unanchored `[a-z0-9.-]*` retried at every offset of `a.a.a.…` was
// quadratic). test/unit/secretRules.test.ts checks the shape of every pattern.

import { KeywordScan } from '../text/keywordScan';
import { maintainedFindings } from './maintainedRules';
import { pemExtent } from './pemBlock';

export interface SecretRule {
  id: string;
  description: string;
  pattern: RegExp;
  /**
   * Literal strings every match contains (or its lookbehind requires), one of which the text must hold for the
   * pattern to be tried (compared ignoring case when the pattern ignores it): most files hold none of a vendor's
   * prefixes, so most rules are skipped without scanning (gitleaks' keywords). Absent: always tried.
   */
  keywords?: readonly string[];
  /** Widens a match to the whole secret (a PEM block spans lines the pattern does not cover). */
  extent?: (text: string, start: number, end: number) => [number, number];
}

/** Names that carry a secret: `password`, `DB_PASSWORD`, `master_password`, `secret_key`, `api-key`… */
const SECRET_NAME =
  // After a letter it is part of a longer word; after an escaped line break (`\npassword` in a
  // JSON string) it is not.
  '(?:(?<![A-Za-z])|(?<=\\\\[nrt]))' +
  '(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret|' +
  'private[_-]?key)' +
  // `private_key_file`, `password_path`: the name of where a secret is, not a secret.
  '(?![_-]?(?:file|path|dir|name|policy|length)(?![A-Za-z]))(?:[_-][A-Za-z0-9]{1,20})?';
/** SECRET_NAME's words, each spelling written out: a rule that opens with SECRET_NAME needs one of them. */
const SECRET_NAME_KEYWORDS = ['password', 'passwd', 'pwd', 'secret'].concat(
  ...['api', 'access', 'auth', 'private'].map((word) => {
    const second = word === 'api' || word === 'private' ? 'key' : 'token';
    return [`${word}${second}`, `${word}_${second}`, `${word}-${second}`];
  }),
);
/** A quote, or a quote escaped inside a string literal (`\"`). */
const ESCAPED_QUOTE = `(?:\\\\?["'])`;
/** No secret: a reference, placeholder or path (`${DB_PASSWORD}`, `<password>`, `{{ .Values.x }}`, `****`, `~/x`). */
const NOT_A_PLACEHOLDER = '(?![$<{%*(\\[~])';

// Patterns are anchored on vendor prefixes or structure, so prose that merely mentions
// "password" or "token" is not refused.
const VENDOR_RULES: readonly SecretRule[] = [
  {
    id: 'private-key',
    description: 'a PEM private key block',
    pattern: /-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----/,
    keywords: [' PRIVATE KEY'],
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
    keywords: [' PRIVATE KEY', 'MII', 'MIG', 'MHcCAQEE', 'MC4CAQAw', 'b3BlbnNzaC1rZXktdjE'],
    extent: pemExtent,
  },
  {
    id: 'aws-access-key-id',
    description: 'an AWS access key id',
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/,
    keywords: ['AKIA', 'ASIA', 'ABIA', 'ACCA'],
  },
  {
    id: 'aws-secret-access-key',
    description: 'an AWS secret access key assignment',
    pattern: /aws_?secret_?(?:access_?)?key\\?["']?\s{0,8}[:=]\s{0,8}\\?["']?[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/i,
    keywords: ['aws'],
  },
  {
    // A bare 40-character secret within a few lines after an access key id (`AKIA… wJalr…`).
    id: 'aws-secret-near-key-id',
    description: 'an AWS secret access key next to its access key id',
    pattern: /(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])(?<=(?:AKIA|ASIA)[0-9A-Z]{16}[^]{1,240})/,
    keywords: ['AKIA', 'ASIA'],
  },
  {
    id: 'github-token',
    description: 'a GitHub token',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{60,255})\b/,
    keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
  },
  {
    id: 'gitlab-token',
    description: 'a GitLab token',
    pattern: /(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20,255}/,
    keywords: ['glpat-'],
  },
  {
    id: 'slack-token',
    description: 'a Slack token',
    pattern: /(?<![A-Za-z0-9-])(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,255}/,
    keywords: ['xox', 'xapp-'],
  },
  {
    id: 'slack-webhook',
    description: 'a Slack webhook URL',
    pattern: /hooks\.slack\.com\/services\/T[A-Za-z0-9]{1,40}\/B[A-Za-z0-9]{1,40}\/[A-Za-z0-9]{1,80}/,
    keywords: ['hooks.slack.com/services/'],
  },
  {
    id: 'stripe-key',
    description: 'a Stripe secret key',
    pattern: /\b(?:sk|rk)_live_[A-Za-z0-9]{20,255}\b/,
    keywords: ['_live_'],
  },
  {
    id: 'openai-key',
    description: 'an OpenAI API key',
    pattern: /(?<![\w-])sk-(?:proj-)?[A-Za-z0-9_-]{32,255}/,
    keywords: ['sk-'],
  },
  {
    id: 'anthropic-key',
    description: 'an Anthropic API key',
    pattern: /(?<![\w-])sk-ant-[A-Za-z0-9_-]{32,255}/,
    keywords: ['sk-ant-'],
  },
  {
    id: 'google-api-key',
    description: 'a Google API key',
    pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/,
    keywords: ['AIza'],
  },
  {
    id: 'npm-token',
    description: 'an npm token',
    pattern: /\bnpm_[A-Za-z0-9]{36}\b/,
    keywords: ['npm_'],
  },
  {
    id: 'jwt',
    description: 'a JSON Web Token',
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{10,4096}\.eyJ[A-Za-z0-9_-]{10,8192}\.[A-Za-z0-9_-]{10,4096}/,
    keywords: ['.eyJ'],
  },
  {
    // `scheme://user:password@host` and `redis://:password@host`.
    id: 'password-in-url',
    description: 'a URL with a password in it',
    pattern: new RegExp(
      `(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{0,31}://[^\\s/:@]{0,256}:${NOT_A_PLACEHOLDER}[^\\s/@]{3,256}@[^\\s/@]{1,253}`,
      'i',
    ),
    keywords: ['://'],
  },
  {
    id: 'secret-assignment',
    description: 'a password, secret or API key assigned a literal value',
    // Quotes may be escaped (`\"`): the text of a JSON or TypeScript string.
    pattern: new RegExp(
      `${SECRET_NAME}${ESCAPED_QUOTE}?\\s{0,8}[:=]\\s{0,8}${ESCAPED_QUOTE}` +
        `${NOT_A_PLACEHOLDER}[^"'\\s\\\\]{8,256}\\\\?["']`,
      'i',
    ),
    keywords: SECRET_NAME_KEYWORDS,
  },
  {
    // `DB_PASSWORD=s3cr3t-value` as in a .env file or a shell line: unquoted, no space around `=`.
    id: 'secret-env-assignment',
    description: 'a password, secret or API key assigned a literal value',
    pattern: new RegExp(`${SECRET_NAME}=${ESCAPED_QUOTE}?${NOT_A_PLACEHOLDER}[^\\s"'\`;|&\\\\]{8,256}`, 'i'),
    keywords: SECRET_NAME_KEYWORDS,
  },
];

// Lore's own rules for what secretlint's recommended preset (maintainedRules.ts) does not know.
// Each was added for a form in test/fixtures/secrets/corpus.ts that was stored raw without it.
const VENDOR_TOKENS = [
  'whsec_[A-Za-z0-9]{24,128}',
  'hv[sb]\\.[A-Za-z0-9_-]{24,512}',
  'hf_[A-Za-z0-9]{30,64}',
  'gl(?:rt|dt|ptt|ft|soat|cbt|imt|agent)-[A-Za-z0-9_-]{20,255}',
  'GR1348941[A-Za-z0-9_-]{20,64}',
  'SK[0-9a-f]{32}(?![0-9a-f])',
  'key-[0-9a-f]{32}(?![0-9a-f])',
  'dop_v1_[0-9a-f]{64}',
  'dapi[0-9a-f]{32}(?![0-9a-f])',
  'dp\\.(?:st|ct|sa|scim|audit)\\.[A-Za-z0-9._-]{40,255}',
  'pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,512}',
  'dckr_pat_[A-Za-z0-9_-]{27,64}',
  'ATATT3[A-Za-z0-9_=-]{100,512}',
  'PMAK-[0-9a-f]{24}-[0-9a-f]{34}',
  'glc_[A-Za-z0-9+/=]{32,512}',
  'glsa_[A-Za-z0-9]{32}_[0-9a-f]{8}',
  'NRAK-[A-Z0-9]{27}',
  'EAAA[A-Za-z0-9_-]{60,255}',
  'sq0(?:atp|csp)-[A-Za-z0-9_-]{22,64}',
  'pscale_(?:pw|tkn|oauth)_[A-Za-z0-9_.-]{32,64}',
  'sbp_[0-9a-f]{40}',
  '[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=-]{60,255}',
  'pul-[0-9a-f]{40}',
  'AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}',
  '[0-9]{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])',
  'ops_eyJ[A-Za-z0-9+/=_-]{100,4096}',
  'sntrys_eyJ[A-Za-z0-9+/=_-]{50,4096}',
];
/** A value that looks generated: 10+ characters with a letter and a digit (not a word, not `changeme`). */
const GENERATED_VALUE =
  `${NOT_A_PLACEHOLDER}(?=[^\\s"']{0,255}[0-9])(?=[^\\s"']{0,255}[A-Za-z])` + `[^\\s"'#,;\\\\]{10,256}`;

const LORE_RULES: readonly SecretRule[] = [
  {
    id: 'vendor-token',
    description: 'an API token in a known vendor format',
    pattern: new RegExp(`(?<![A-Za-z0-9_-])(?:${VENDOR_TOKENS.join('|')})`),
  },
  {
    // `password: s3cr3tValue9` (YAML, unquoted) and `SECRET_KEY = abc123…` (.env, .ini, .pypirc).
    id: 'secret-unquoted-assignment',
    description: 'a password, secret or API key assigned a literal value',
    pattern: new RegExp(`${SECRET_NAME}[ \\t]{0,8}[:=][ \\t]{0,8}${ESCAPED_QUOTE}?${GENERATED_VALUE}`, 'i'),
    keywords: SECRET_NAME_KEYWORDS,
  },
  {
    id: 'token-assignment',
    description: 'a token assigned a literal value',
    pattern: /(?<![A-Za-z_-])token[ \t]{0,8}:[ \t]{0,8}[A-Za-z0-9._~+/=-]{32,4096}/i,
    keywords: ['token'],
  },
  {
    // Azure and ADO.NET connection strings, ODBC (`Pwd={…}`), SAS URLs (`sig=`).
    id: 'connection-string-secret',
    description: 'a key or password in a connection string',
    pattern:
      /(?<![A-Za-z])(?:AccountKey|SharedAccessKey|SharedAccessSignature|Password|Pwd|sig)=\{?(?![$<%*([~])[^;\s&"'{}\\|]{8,512}/i,
    keywords: ['accountkey=', 'sharedaccesskey=', 'sharedaccesssignature=', 'password=', 'pwd=', 'sig='],
  },
  {
    id: 'authorization-header',
    description: 'credentials in an Authorization header',
    pattern: /authorization:[ \t]{0,8}(?:basic|bearer|token)[ \t]{1,8}[A-Za-z0-9+/=._~-]{16,4096}/i,
    keywords: ['authorization:'],
  },
  {
    // .docker/config.json and friends: "auth": "base64(user:password)".
    id: 'registry-auth',
    description: 'a registry login (base64 user:password)',
    pattern: /\\?"auth\\?"[ \t]{0,8}:[ \t]{0,8}\\?"[A-Za-z0-9+/=]{16,4096}/,
    keywords: ['"auth'],
  },
  {
    id: 'netrc-password',
    description: 'a login and password (.netrc)',
    pattern: /(?<![A-Za-z])login[ \t]{1,8}[^\s]{1,256}[ \t]{1,8}password[ \t]{1,8}[^\s]{6,256}/,
    keywords: ['password'],
  },
  {
    // A PEM private key wrapped in base64 (kubeconfig `client-key-data`, Helm values, CI variables).
    id: 'private-key-base64',
    description: 'a base64-wrapped PEM private key',
    pattern:
      /(?<![A-Za-z0-9+/])LS0tLS1CRUdJT[A-Za-z0-9+/]{0,64}(?:IFBSSVZBVEUgS0VZ|UklWQVRFIEtFW|UFJJVkFURSBLRV)[A-Za-z0-9+/=]{0,65536}/,
    keywords: ['LS0tLS1CRUdJT'],
  },
  {
    id: 'kubeconfig-key-data',
    description: 'a kubeconfig client key',
    pattern: /(?:client-key-data|client-key|private-key-data)[ \t]{0,4}:[ \t]{0,4}[A-Za-z0-9+/=]{40,65536}/,
    keywords: ['client-key', 'private-key-data'],
  },
  {
    // The values under `data:` of a Kubernetes Secret (base64 of the secret itself).
    id: 'kubernetes-secret-data',
    description: 'a value in a Kubernetes Secret',
    // Base64 with a digit and a capital (not a name like `istio-system`), under `data:` of a Secret.
    pattern: new RegExp(
      '(?<=:[ \\t]{1,4})(?=[A-Za-z0-9+/]{0,4096}[0-9])(?=[A-Za-z0-9+/]{0,4096}[A-Z])[A-Za-z0-9+/]{8,4096}={0,2}' +
        '(?![A-Za-z0-9+/=])(?<=\\n[ \\t]{0,8}(?:string)?[Dd]ata:[ \\t]{0,4}\\r?\\n[^]{1,600})' +
        '(?<=kind:[ \\t]{0,4}Secret\\b[^]{1,1200})',
    ),
    keywords: ['Secret'],
  },
];

export interface SecretFinding {
  rule: string;
  description: string;
  index: number;
  length: number;
}

/** Every rule of Lore's own, run before secretlint's preset. */
export const SECRET_RULES: readonly SecretRule[] = [...VENDOR_RULES, ...LORE_RULES];

const GLOBAL = new Map(SECRET_RULES.map((rule) => [rule, new RegExp(rule.pattern.source, `${rule.pattern.flags}g`)]));

/** A rule's keywords as they are compared: lowercased for a pattern that ignores case (against the lowercased text). */
const KEYWORDS = new Map(
  SECRET_RULES.map((rule) => {
    const folded = rule.pattern.flags.includes('i');
    return [rule, { folded, words: rule.keywords?.map((w) => (folded ? w.toLowerCase() : w)) }];
  }),
);
/** Every keyword, looked for in one pass: the case-sensitive ones, and the ones compared in any case. */
const CASED = new KeywordScan(
  SECRET_RULES.filter((rule) => !KEYWORDS.get(rule)!.folded).flatMap((rule) => rule.keywords ?? []),
  false,
);
const FOLDED = new KeywordScan(
  SECRET_RULES.filter((rule) => KEYWORDS.get(rule)!.folded).flatMap((rule) => rule.keywords ?? []),
  true,
);

/**
 * The rules whose pattern may match `text`: those without keywords, and those whose keywords it holds one of. A
 * match contains a keyword (or its lookbehind does), so a rule skipped here would have found nothing.
 */
function rulesFor(text: string): SecretRule[] {
  const cased = CASED.found(text);
  const folded = FOLDED.found(text);
  return SECRET_RULES.filter((rule) => {
    const { folded: ignoresCase, words } = KEYWORDS.get(rule)!;
    if (!words) return true;
    const held = ignoresCase ? folded : cased;
    return words.some((word) => held.has(word));
  });
}

/** Every secret in `text`: Lore's own rules, then secretlint's recommended preset (maintainedRules.ts). */
export function findSecrets(text: string): SecretFinding[] {
  const findings: SecretFinding[] = [];
  for (const rule of rulesFor(text)) {
    for (const match of text.matchAll(GLOBAL.get(rule)!)) {
      const matched: [number, number] = [match.index, match.index + match[0].length];
      const [start, end] = rule.extent ? rule.extent(text, ...matched) : matched;
      findings.push({ rule: rule.id, description: rule.description, index: start, length: end - start });
    }
  }
  findings.push(...maintainedFindings(text));
  return findings.sort((a, b) => a.index - b.index || b.length - a.length);
}

/** The first rule (Lore's, then the preset's) that finds a secret in `text`, named but never its match. */
export function firstSecret(text: string): { id: string; description: string } | undefined {
  const own = rulesFor(text).find((rule) => rule.pattern.test(text));
  if (own) return own;
  const [found] = maintainedFindings(text);
  return found ? { id: found.rule, description: found.description } : undefined;
}

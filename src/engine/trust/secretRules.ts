// Rules for text that looks like a secret. Lore refuses to store, embed or log such text; a
// refusal names the rule (never the match) so the person knows what to remove.

export interface SecretRule {
  id: string;
  description: string;
  pattern: RegExp;
}

// Patterns are anchored on vendor prefixes or structure, so prose that merely mentions
// "password" or "token" is not refused.
export const SECRET_RULES: readonly SecretRule[] = [
  { id: 'private-key', description: 'a PEM private key block', pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/ },
  { id: 'aws-access-key-id', description: 'an AWS access key id', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/ },
  {
    id: 'aws-secret-access-key',
    description: 'an AWS secret access key assignment',
    pattern: /aws_?secret_?(?:access_?)?key["']?\s*[:=]\s*["']?[A-Za-z0-9/+=]{40}\b/i,
  },
  { id: 'github-token', description: 'a GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{60,})\b/ },
  { id: 'gitlab-token', description: 'a GitLab token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}\b/ },
  { id: 'slack-token', description: 'a Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/ },
  { id: 'slack-webhook', description: 'a Slack webhook URL', pattern: /hooks\.slack\.com\/services\/T[A-Za-z0-9]+\/B[A-Za-z0-9]+\/[A-Za-z0-9]+/ },
  { id: 'stripe-key', description: 'a Stripe secret key', pattern: /\b(?:sk|rk)_live_[A-Za-z0-9]{20,}\b/ },
  { id: 'openai-key', description: 'an OpenAI API key', pattern: /\bsk-(?:proj-)?[A-Za-z0-9_-]{32,}\b/ },
  { id: 'anthropic-key', description: 'an Anthropic API key', pattern: /\bsk-ant-[A-Za-z0-9_-]{32,}\b/ },
  { id: 'google-api-key', description: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { id: 'npm-token', description: 'an npm token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/ },
  { id: 'jwt', description: 'a JSON Web Token', pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/ },
  {
    id: 'password-in-url',
    description: 'a URL with a password in it',
    pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:[^\s/@]{3,}@[^\s/@]+/i,
  },
  {
    id: 'secret-assignment',
    description: 'a password, secret or API key assigned a literal value',
    pattern:
      /\b(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret)["']?\s*[:=]\s*["'][^"'\s]{8,}["']/i,
  },
];

export interface SecretFinding {
  rule: string;
  description: string;
  index: number;
  length: number;
}

export function findSecrets(text: string): SecretFinding[] {
  const findings: SecretFinding[] = [];
  for (const rule of SECRET_RULES) {
    const global = new RegExp(rule.pattern.source, rule.pattern.flags.includes('g') ? rule.pattern.flags : rule.pattern.flags + 'g');
    for (const match of text.matchAll(global)) {
      findings.push({ rule: rule.id, description: rule.description, index: match.index ?? 0, length: match[0].length });
    }
  }
  return findings.sort((a, b) => a.index - b.index);
}

export function firstSecret(text: string): SecretRule | undefined {
  return SECRET_RULES.find((rule) => rule.pattern.test(text));
}

// Secret redaction before anything is stored, embedded or logged. Reports how many, never what.

import { findSecrets } from '../trust/secretRules';

export interface Redacted {
  text: string;
  redactions: number;
}

export function redact(text: string): Redacted {
  const findings = findSecrets(text);
  if (!findings.length) return { text, redactions: 0 };
  let out = '';
  let at = 0;
  let count = 0;
  for (const f of findings) {
    if (f.index < at) continue; // two rules matched the same secret
    out += text.slice(at, f.index) + `[REDACTED:${f.rule}]`;
    at = f.index + f.length;
    count++;
  }
  return { text: out + text.slice(at), redactions: count };
}

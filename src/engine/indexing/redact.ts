// Secret redaction before anything is stored, embedded or logged. Reports how many, never what.
// A redaction keeps the line breaks of what it replaces, so line numbers of the redacted text
// are those of the original (read_file redacts a whole file, then cuts the lines asked for).

import { findSecrets } from '../model/secretRules';

export interface Redacted {
  text: string;
  redactions: number;
  /** The lines (1-based, first and last) each redaction covered, in order. */
  lines: Array<[number, number]>;
}

function newlines(text: string): string {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return '\n'.repeat(n);
}

export function redact(text: string): Redacted {
  const findings = findSecrets(text);
  if (!findings.length) return { text, redactions: 0, lines: [] };
  let out = '';
  let at = 0;
  let line = 1;
  const lines: Array<[number, number]> = [];
  for (const f of findings) {
    if (f.index < at) continue; // two rules matched the same secret
    const before = text.slice(at, f.index);
    const breaks = newlines(text.slice(f.index, f.index + f.length));
    line += newlines(before).length;
    lines.push([line, line + breaks.length]);
    line += breaks.length;
    out += before + `[REDACTED:${f.rule}]` + breaks;
    at = f.index + f.length;
  }
  return { text: out + text.slice(at), redactions: lines.length, lines };
}

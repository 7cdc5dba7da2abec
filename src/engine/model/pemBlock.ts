// The extent of a PEM private key around a match of its header, its END line or the opening of
// its base64 body: the lines of base64 (and `Proc-Type:`-style headers) up to and including the
// END line, so redaction removes the whole block, not only the line a pattern saw. Also the
// one-line form inside JSON (`"-----BEGIN…-----\nMIIE…\n-----END…-----\n"`).
//
// Linear: a scan stops at the first line that is not key material, at any `-----` run (the next
// header or END line) and after MAX_BLOCK characters, so two scans never cover the same text twice.

/** An 8192-bit RSA key is about 6.5 KB of PEM; nothing longer is one key. */
const MAX_BLOCK = 16 * 1024;
const DASHES = '-----';
const END_LINE = /-----END[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----/y;
/** A line of key material: base64 (escaped newlines allowed), blank, or a `Proc-Type: 4,ENCRYPTED` header. */
const KEY_LINE = /^[ \t\r]{0,64}(?:[A-Za-z0-9+/=\\]{0,16384}|[A-Za-z-]{1,30}: [ -~]{1,200})[ \t\r]{0,64}$/;

function endLineAt(text: string, at: number): number | null {
  END_LINE.lastIndex = at;
  const m = END_LINE.exec(text);
  return m ? at + m[0].length : null;
}

/** Where the key that continues at `from` ends: after its END line, else after its last line of key material. */
function forward(text: string, from: number): number {
  const limit = Math.min(text.length, from + MAX_BLOCK);
  let good = from;
  let lineStart = from;
  for (let i = from; i <= limit; i++) {
    if (i < limit && text.startsWith(DASHES, i)) {
      const end = endLineAt(text, i);
      return end !== null && KEY_LINE.test(text.slice(lineStart, i)) ? end : good;
    }
    if (i === limit || text[i] === '\n') {
      if (!KEY_LINE.test(text.slice(lineStart, i))) return good;
      good = i;
      lineStart = i + 1;
    }
  }
  return good;
}

/** Where the key whose END line starts at `at` began: the first of the lines of key material before it. */
function backward(text: string, at: number): number {
  const limit = Math.max(0, at - MAX_BLOCK);
  let good = at;
  let lineEnd = at;
  for (let i = at - 1; i >= limit - 1; i--) {
    if (i >= limit && i >= DASHES.length - 1 && text.startsWith(DASHES, i - DASHES.length + 1)) return good;
    if (i < limit || text[i] === '\n') {
      if (!KEY_LINE.test(text.slice(i + 1, lineEnd))) return good;
      good = i + 1;
      lineEnd = i;
    }
  }
  return good;
}

export function pemExtent(text: string, start: number, end: number): [number, number] {
  if (text.startsWith('-----END', start)) return [backward(text, start), end];
  return [start, Math.max(end, forward(text, end))];
}

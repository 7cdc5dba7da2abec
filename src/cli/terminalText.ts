// What the CLI writes to a terminal cannot drive it. Stored text is refused at save time if it
// holds control characters (rejectControl in engine/model/validate.ts), but a store can hold text
// from before that rule, file names come from the disk, and errors quote input: so every line the
// CLI prints passes through here, and each control character (C0 but tab and newline, DEL, C1, bidi
// overrides and isolates) is shown as a visible escape such as \x1b or \u202e, never sent raw.

// C0 but \t and \n, DEL, C1, and the bidi embeddings/overrides (U+202A–E) and isolates (U+2066–9).
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
// In JSON, C0 is escaped already; C1 and the bidi controls are not.
const JSON_UNESCAPED_CONTROL = /[\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

function escapeOne(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Human text for a terminal: control characters shown as escapes; tab and newline kept. */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, escapeOne);
}

/** JSON for a terminal: the same value once parsed, with no character a terminal acts on. */
export function terminalSafeJson(json: string): string {
  return json.replace(JSON_UNESCAPED_CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A field shown in a confirmation: quoted as JSON (so a newline is \n, and the value cannot end
 * its own quotes) and escaped, so no field can draw a line that looks like Lore's own.
 */
export function quotedField(value: string | null | undefined): string {
  return terminalSafe(JSON.stringify(value ?? ''));
}

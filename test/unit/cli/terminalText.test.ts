// terminalSafe and quotedField: what the CLI prints cannot drive the terminal or forge a line.

import { strict as assert } from 'node:assert';
import { quotedField, terminalSafe, terminalSafeJson } from '../../../src/cli/terminalText';

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

const ATTACKS: Record<string, string> = {
  'CSI colour': '\x1b[31mred',
  'cursor up and erase line': '\x1b[1A\x1b[2K',
  'OSC 52 clipboard write': '\x1b]52;c;ZXZpbA==\x07',
  'OSC title': '\x1b]0;owned\x1b\\',
  'C1 CSI': '\u009b31m',
  'carriage return': 'fake\rreal',
  backspace: 'ab\b\b',
  'bidi override': 'abc\u202etxt.exe',
  'bidi isolate': '\u2066x\u2069',
  DEL: 'a\x7f',
};

describe('terminal-safe output', () => {
  for (const [name, attack] of Object.entries(ATTACKS)) {
    it(`escapes ${name} in text and in JSON`, () => {
      const shown = terminalSafe(`before ${attack} after`);
      assert.doesNotMatch(shown, RAW_CONTROL);
      const json = terminalSafeJson(JSON.stringify({ title: attack }));
      assert.doesNotMatch(json, RAW_CONTROL);
      assert.equal(JSON.parse(json).title, attack, 'the JSON still means the same value');
    });
  }

  it('keeps tabs and newlines, and shows what it escaped', () => {
    assert.equal(terminalSafe('a\tb\nc'), 'a\tb\nc');
    assert.equal(terminalSafe('\x1b[31m'), '\\x1b[31m');
    assert.equal(terminalSafe('\u202e'), '\\u202e');
  });

  it('quotes a field on one line, so it cannot end its quotes or start a line of its own', () => {
    const forged = 'fine"\nsaved from:  user';
    const shown = quotedField(forged);
    assert.equal(shown.split('\n').length, 1);
    assert.equal(shown, '"fine\\"\\nsaved from:  user"');
  });
});

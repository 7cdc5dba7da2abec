// No message says "Lore:" twice (issue 25): every notification a Lore command shows is scanned in
// the source — none spells a "Lore:" prefix of its own (they go through loreSays) or holds two —
// and loreSays is held to its rule on the texts that reach it: the engine's hints reworded for the
// editor (which name commands as "Lore: Recall…") and the Restricted Mode refusal.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { LoreError } from '../../../src/engine';
import { errorText, loreSays } from '../../../src/vscode/editorWording';
import { UNTRUSTED_HINT, UNTRUSTED_MESSAGE } from '../../../src/vscode/stores';

const SRC = join(__dirname, '..', '..', '..', 'src', 'vscode');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The first argument's opening text of every notification and status-bar message in the source. */
function messageOpenings(): { at: string; text: string }[] {
  const out: { at: string; text: string }[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const calls = /(show(?:Error|Warning|Information)Message|setStatusBarMessage)\(\s*([`'"])((?:(?!\2)[\s\S])*)/g;
    for (const m of text.matchAll(calls)) out.push({ at: `${relative(SRC, file)}: ${m[1]}`, text: m[3] });
  }
  return out;
}

const count = (text: string) => text.split('Lore:').length - 1;

describe('vscode messages name Lore once', () => {
  it('finds the messages it scans', () => {
    assert.ok(messageOpenings().length >= 15, String(messageOpenings().length));
  });

  it('no message spells its own "Lore:" prefix or says "Lore:" twice', () => {
    const own = messageOpenings().filter((m) => /^Lore:/.test(m.text) || count(m.text) > 1);
    assert.deepEqual(own, []);
  });

  it('loreSays prefixes once, and never a text that names Lore already', () => {
    assert.equal(loreSays('indexing failed: disk full'), 'Lore: indexing failed: disk full');
    assert.equal(loreSays(UNTRUSTED_MESSAGE), UNTRUSTED_MESSAGE);
    const untrusted = loreSays(errorText(new LoreError('STORE_UNAVAILABLE', UNTRUSTED_MESSAGE, UNTRUSTED_HINT)));
    assert.ok(count(untrusted) <= 1 && !/Lore: Lore/.test(untrusted), untrusted);
    const hints = [
      'run `lore model download`',
      'see `lore recall`',
      'run lore index --full',
      'lore reverify decision/x',
    ];
    for (const hint of hints) {
      const shown = loreSays(errorText(new LoreError('NOT_FOUND', 'nothing to recall', hint)));
      assert.equal(count(shown), 1, shown);
    }
  });
});

// No CLI command, flag or environment variable in the editor's own words (issue 25, point 5): every
// string the extension contributes to VS Code's UI (command titles, settings' descriptions, view
// welcomes, the Restricted Mode description) and the opening text of every notification and
// status-bar message in src/vscode names commands, views and `lore.*` settings instead.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const SRC = join(ROOT, 'src', 'vscode');

/** `lore <command>`, a `--flag`, or a LORE_* variable, as the CLI's docs write them. */
const CLI_TERM =
  /`lore [a-z]|\blore (remember|recall|index|mcp|serve|model|drift|reverify|kind|init|list|get|export|import|inbox|doctor)\b|(^|[\s(`])--[a-z][a-z-]+|\bLORE_[A-Z]+|\bnpm (ci|run|install)\b/;

/** Every string under `value`, with where it is. */
function strings(value: unknown, at: string): { at: string; text: string }[] {
  if (typeof value === 'string') return [{ at, text: value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${at}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => strings(v, `${at}.${k}`));
  return [];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The first argument's text of every notification, status-bar message, quick pick placeholder and title. */
function messageTexts(): { at: string; text: string }[] {
  const out: { at: string; text: string }[] = [];
  const calls =
    /(show(?:Error|Warning|Information)Message|setStatusBarMessage|placeHolder:|title:|prompt:|detail:|tooltip =)\s*\(?\s*([`'"])((?:(?!\2)[\s\S])*)/g;
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(calls)) out.push({ at: `${relative(SRC, file)}: ${m[1]}`, text: m[3] });
  }
  return out;
}

describe('the editor names no CLI command, flag or environment variable', () => {
  it('in what package.json contributes to the UI, and in the Restricted Mode description', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      contributes: Record<string, unknown>;
      capabilities: unknown;
    };
    const shown = [...strings(manifest.contributes, 'contributes'), ...strings(manifest.capabilities, 'capabilities')];
    assert.ok(shown.length > 100, `read ${shown.length} strings`);
    // Values, not prose: ids, `when` clauses, commands and globs are never shown as text.
    const prose = shown.filter((s) => / /.test(s.text) && !/\.(when|command|id|enablement)$/.test(s.at));
    assert.deepEqual(
      prose.filter((s) => CLI_TERM.test(s.text)),
      [],
    );
  });

  it('in the messages, titles and placeholders the extension shows', () => {
    const texts = messageTexts();
    assert.ok(texts.length >= 30, `read ${texts.length} texts`);
    assert.deepEqual(
      texts.filter((m) => CLI_TERM.test(m.text)),
      [],
    );
  });

  it('holds its rule to the texts the issue found', () => {
    assert.match('run `lore model download` first', CLI_TERM);
    assert.match('set LORE_MODEL_DIR to the folder', CLI_TERM);
    assert.match('npm ci && npm run build', CLI_TERM);
    assert.match('pass --body to keep it', CLI_TERM);
    assert.doesNotMatch('Lore: Download Embedding Model', CLI_TERM);
    assert.doesNotMatch('the lore.embedding.modelDir setting', CLI_TERM);
  });
});

// One type-info table (engine/model/typeInfo.ts) names each record type to a person; the doors
// read it instead of keeping their own labels, plurals and icons.

import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { MEMORY_TYPES, TYPE_INFO, typeChoice, typeGuide, typeHeading, typeInfo } from '../../../../src/engine';

const SRC = join(__dirname, '../../../../src');
const TABLE = 'engine/model/typeInfo.ts';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('the type-info table', () => {
  it('names every record type: title, singular, plural, what it holds and an icon', () => {
    for (const type of MEMORY_TYPES) {
      const info = TYPE_INFO[type];
      for (const field of ['name', 'word', 'plural', 'blurb', 'icon'] as const)
        assert.ok(info[field].trim(), `${type}.${field} is empty`);
    }
    assert.deepEqual(Object.keys(TYPE_INFO).sort(), [...MEMORY_TYPES].sort());
  });

  it('gives the words the editor, the CLI and MCP show', () => {
    assert.equal(typeChoice('dead_end'), 'Dead end — what was tried and did not work');
    assert.equal(typeChoice('decision'), 'Decision — what was chosen and why');
    assert.equal(TYPE_INFO.dead_end.name, 'Dead End');
    assert.equal(typeHeading('dead_end'), 'Dead ends');
    assert.equal(typeHeading('decision'), 'Decisions');
    assert.equal(typeInfo('adr'), undefined, 'a doc kind is not a record type');
    assert.match(typeGuide(), /^decision: what was chosen and why; dead_end: /);
  });

  it('is the only place a type is described or given an icon', () => {
    // A copy of the table: a type mapped to its icon or its title, or a distinctive description.
    const phrases = MEMORY_TYPES.flatMap((t) => [
      `${t}: '${TYPE_INFO[t].icon}'`,
      `${t}: '${TYPE_INFO[t].name}'`,
      ...(TYPE_INFO[t].blurb.length > 20 ? [TYPE_INFO[t].blurb] : []),
    ]);
    const copies: string[] = [];
    for (const file of sources(SRC)) {
      const at = relative(SRC, file);
      if (at === TABLE) continue;
      const text = readFileSync(file, 'utf8');
      for (const phrase of phrases) if (text.includes(phrase)) copies.push(`${at}: ${phrase}`);
    }
    assert.deepEqual(copies, [], 'read these from TYPE_INFO instead');
  });
});

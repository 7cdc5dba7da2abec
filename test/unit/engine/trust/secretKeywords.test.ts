// The secret rules' keywords (secretRules.ts): a rule is tried only on text holding one of them,
// so each must be in every text its pattern matches, or a secret would be stored. Shown on the
// secret corpus, form by form and all at once: findSecrets finds exactly what every rule run on
// the whole text finds.

import { strict as assert } from 'node:assert';
import { maintainedFindings } from '../../../../src/engine/model/maintainedRules';
import { findSecrets, SECRET_RULES, type SecretFinding } from '../../../../src/engine/model/secretRules';
import { SECRET_CORPUS } from '../../../fixtures/secrets/corpus';

/** findSecrets as it was before keywords: every rule over the whole text. */
function everyRule(text: string): SecretFinding[] {
  const findings: SecretFinding[] = [];
  for (const rule of SECRET_RULES) {
    for (const match of text.matchAll(new RegExp(rule.pattern.source, `${rule.pattern.flags}g`))) {
      const matched: [number, number] = [match.index, match.index + match[0].length];
      const [start, end] = rule.extent ? rule.extent(text, ...matched) : matched;
      findings.push({ rule: rule.id, description: rule.description, index: start, length: end - start });
    }
  }
  findings.push(...maintainedFindings(text));
  return findings.sort((a, b) => a.index - b.index || b.length - a.length);
}

const TEXTS = [
  ...SECRET_CORPUS.map((form) => form.text),
  SECRET_CORPUS.map((form) => form.text).join('\n\n'),
  // Case: the rules that ignore it match any case of their keywords.
  'DB_PASSWORD: "Pa55w0rd!Pa55"\nAPI-KEY=abcd1234efgh5678\nAuthorization: Bearer abcdefghijklmnop1234',
  'Server=tcp:db;Database=app;User ID=app;PASSWORD=s3cr3tValue9;',
];

describe('secret rules: keywords', () => {
  it('every rule that matches a corpus text finds one of its keywords in it', () => {
    let checked = 0;
    for (const text of TEXTS) {
      for (const rule of SECRET_RULES) {
        if (!rule.keywords || !rule.pattern.test(text)) continue;
        const folded = rule.pattern.flags.includes('i');
        const haystack = folded ? text.toLowerCase() : text;
        const held = rule.keywords.some((w) => haystack.includes(folded ? w.toLowerCase() : w));
        assert.ok(held, `${rule.id} matches a text that holds none of its keywords: ${text.slice(0, 80)}`);
        checked++;
      }
    }
    assert.ok(checked >= 20, `only ${checked} matches checked`);
  });

  it('findSecrets finds what every rule run on the whole text finds, on every corpus text', () => {
    for (const text of TEXTS) assert.deepEqual(findSecrets(text), everyRule(text), text.slice(0, 80));
  });

  it('a text that holds none of a rule’s keywords is still checked by the rules without any', () => {
    const text = 'see https://example.com/docs and the table below\n';
    assert.deepEqual(findSecrets(text), everyRule(text));
    assert.deepEqual(findSecrets(text), []);
  });
});

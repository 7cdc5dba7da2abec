// The secret rules' keyword filter finds in one pass exactly the words a scan per word finds:
// words inside other words, words that overlap, and words in any case when asked.

import { strict as assert } from 'node:assert';
import { KeywordScan } from '../../../../src/engine/text/keywordScan';

/** What the filter did before: one `includes` per word. */
function perWord(words: readonly string[], text: string, ignoreCase: boolean): string[] {
  const haystack = ignoreCase ? text.toLowerCase() : text;
  return [...new Set(words.map((w) => (ignoreCase ? w.toLowerCase() : w)))].filter((w) => haystack.includes(w)).sort();
}

describe('KeywordScan', () => {
  const words = ['sk-', 'sk-ant-', 'ant', 'AKIA', 'KIA', '://', 'hooks.slack.com/services/', 'a.b', 'x|y'];

  it('finds words inside other words and overlapping ones, as a scan per word does', () => {
    const scan = new KeywordScan(words, false);
    for (const text of [
      'key sk-ant-api03 here',
      'AKIAIOSFODNN7EXAMPLE',
      'see https://hooks.slack.com/services/T000',
      'nothing at all',
      'a.b and axb and x|y',
      'ant then sk-',
      '',
    ])
      assert.deepEqual([...scan.found(text)].sort(), perWord(words, text, false), text);
  });

  it('compares in any case when asked, reporting the lowercased word', () => {
    const scan = new KeywordScan(['Password', 'secret', 'api_key'], true);
    assert.deepEqual([...scan.found('DB_PASSWORD=x; Secret; API_KEY')].sort(), ['api_key', 'password', 'secret']);
    assert.deepEqual([...new KeywordScan(['Secret'], false).found('secret')], []);
  });

  it('agrees with a scan per word on random text', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const alphabet = 'sk-antAKI:/.abxy| ';
    for (let i = 0; i < 300; i++) {
      const text = Array.from({ length: 40 }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      for (const ignoreCase of [false, true])
        assert.deepEqual(
          [...new KeywordScan(words, ignoreCase).found(text)].sort(),
          perWord(words, text, ignoreCase),
          text,
        );
    }
  });
});

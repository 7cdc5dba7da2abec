// Which words of a fixed set a text holds, found in one pass of one regular expression instead of
// one scan of the whole text per word (the secret rules' keyword filter, secretRules.ts, scanned
// every indexed file some sixty times).

/** A regular expression's special characters escaped, so a word matches itself. */
function literal(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

export class KeywordScan {
  private readonly pattern: RegExp;
  /** Each word, with the words of the set it contains (a match is the longest word starting there). */
  private readonly within: Map<string, readonly string[]>;

  /** `ignoreCase`: a word is found in any case (ASCII), and reported lowercased. */
  constructor(
    words: Iterable<string>,
    private readonly ignoreCase: boolean,
  ) {
    const folded = [...words].map((word) => (ignoreCase ? word.toLowerCase() : word));
    const unique = [...new Set(folded)].filter((word) => word.length).sort((a, b) => b.length - a.length);
    // A lookahead matches empty, so every start of a word is tried, even inside another match.
    const source = unique.length ? `(?=(${unique.map(literal).join('|')}))` : '(?!)';
    this.pattern = new RegExp(source, ignoreCase ? 'gi' : 'g');
    this.within = new Map(unique.map((word) => [word, unique.filter((other) => word.includes(other))]));
  }

  /** Every word of the set that `text` holds. */
  found(text: string): Set<string> {
    const out = new Set<string>();
    for (const match of text.matchAll(this.pattern)) {
      const word = this.ignoreCase ? match[1].toLowerCase() : match[1];
      if (out.has(word)) continue;
      for (const inner of this.within.get(word)!) out.add(inner);
    }
    return out;
  }
}

// What drift works out from a text, kept for the next question about the same text: a page's
// outline (its lines, headings and their ids) is the same for every link into that page, and an
// index's batch links into the same few pages hundreds of times. Keyed by the text itself (equal
// text, equal answer), so an edited file is never answered from its old text; bounded, oldest out.

export class TextMemo<V> {
  private readonly entries = new Map<string, Map<string, V>>();

  constructor(private readonly limit = 256) {}

  /** `compute(text)`'s answer for this text and variant (e.g. the page's slug rule), computed once. */
  get(text: string, variant: string, compute: () => V): V {
    let byVariant = this.entries.get(text);
    if (!byVariant) {
      if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(text, (byVariant = new Map()));
    }
    let value = byVariant.get(variant);
    if (value === undefined) byVariant.set(variant, (value = compute()));
    return value;
  }
}

// A generated part of a document: the text between `<!-- NAME:start -->` and `<!-- NAME:end -->`.
// The generators (bench/readme.ts, eval/qualityDoc.ts) write it with withMarkedSection and their
// tests read it back with markedSection, so the markers are spelt, found and replaced in one place.

const span = (name: string): RegExp => {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`<!-- ${escaped}:start -->\\n?([\\s\\S]*?)\\n?<!-- ${escaped}:end -->`);
};

/** The text between the markers `name` (without the line breaks next to them); null when there are none. */
export function markedSection(text: string, name: string): string | null {
  return span(name).exec(text)?.[1] ?? null;
}

/**
 * `text` with the section `name` holding `body` (a line each for the markers, the rest left as it
 * is). No markers: an error naming `where` and the markers it needs, nothing written.
 */
export function withMarkedSection(text: string, name: string, body: string, where: string): string {
  const pattern = span(name);
  if (!pattern.test(text)) throw new Error(`${where} has no <!-- ${name}:start --> … <!-- ${name}:end --> section`);
  return text.replace(pattern, () => `<!-- ${name}:start -->\n${body}\n<!-- ${name}:end -->`);
}

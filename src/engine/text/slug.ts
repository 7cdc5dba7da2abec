// A heading's slug as GitHub renders it (`## Roll back, if needed!` is `#roll-back-if-needed`), from
// the text the page shows. Site generators' own ids (tech-docs, Hugo…) stay with drift's site rules.

/** Headings longer than this are slugged as written (see renderedHeading). */
const MAX_RENDERED_HEADING = 1000;

/**
 * A heading's text as the page shows it: a link shows its text (`[Loss of data](https://…)` is
 * "Loss of data"), an image and HTML tags nothing. GitHub and the generators slug this, not the source.
 */
export function renderedHeading(heading: string): string {
  // A line this long is no heading anyone links to; rendering it would rescan it from every `[` and `<`.
  if (heading.length > MAX_RENDERED_HEADING) return heading;
  // Code spans are shown as written (`Future<Output = T>` is no tag); the text between them is rendered.
  return heading
    .split(/(`+[^`]*`+)/)
    .map((part, i) =>
      i % 2
        ? part
        : part
            .replace(/!\[(?:[^\]\\]|\\.)*\](?:\([^)]*\)|\[[^\]]*\])/g, '')
            .replace(/\[((?:[^\]\\]|\\.)*)\](?:\([^)]*\)|\[[^\]]*\])/g, '$1')
            .replace(/<\/?[a-z][^>]*>/gi, ''),
    )
    .join('');
}

export function headingSlug(heading: string): string {
  return renderedHeading(heading)
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

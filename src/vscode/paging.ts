// Reading a paged list (list, listDocs) to the end, or until `cap` items: the views, the memory
// picker and the drift fallback all page the same way.

export interface Page<T> {
  items: T[];
  total: number;
  next_offset: number | null;
}

export async function readPages<T>(
  fetch: (offset: number) => Promise<Page<T>>,
  cap = Infinity,
): Promise<{ items: T[]; total: number }> {
  const items: T[] = [];
  let total = 0;
  for (let offset: number | null = 0; offset !== null && items.length < cap;) {
    const page = await fetch(offset);
    items.push(...page.items);
    total = page.total;
    offset = page.next_offset;
  }
  return { items, total };
}

// A memory as an editable Markdown document: front matter (title, description, anchors, links,
// tags) and the body. What the Edit command opens and parses back on save; a mistake in the
// front matter is named by its field and line, and nothing is saved.

import type { Memory } from '../engine';

export interface EditedMemory {
  title: string;
  description: string;
  anchors: string[];
  links: string[];
  tags: string[];
  body: string;
}

const SCALARS = ['title', 'description'] as const;
const LISTS = ['anchors', 'links', 'tags'] as const;
const FIELDS = [...SCALARS, ...LISTS].join(', ');

function list(name: string, items: string[]): string {
  return items.length ? `${name}:\n${items.map((i) => `  - ${i}`).join('\n')}` : `${name}: []`;
}

/** The generated comment line under the opening "---": which version the text is (parsing skips it). */
export function editableHeader(memory: Pick<Memory, 'key' | 'version' | 'status'>): string {
  const which = `${memory.key} · version ${memory.version} · ${memory.status}`;
  return `# ${which}. Edit, then save: a new version is recorded.`;
}

export function renderEditable(memory: Memory): string {
  return [
    '---',
    editableHeader(memory),
    `title: ${memory.title}`,
    `description: ${memory.description}`,
    list('anchors', memory.anchors),
    list('links', memory.links),
    list('tags', memory.tags),
    '---',
    '',
    memory.body,
  ].join('\n');
}

export class FrontMatterError extends Error {}

export function parseEditable(text: string): EditedMemory {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== '---') {
    throw new FrontMatterError('the document must start with its front matter (a line "---")');
  }
  const end = lines.findIndex((l, i) => i > 0 && l.trim() === '---');
  if (end < 0) throw new FrontMatterError('the front matter has no closing "---" line');
  const out: EditedMemory = { title: '', description: '', anchors: [], links: [], tags: [], body: '' };
  let current: (typeof LISTS)[number] | null = null;
  for (let i = 1; i < end; i++) {
    const line = lines[i];
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const item = /^\s+-\s*(.*)$/.exec(line);
    if (item) {
      if (!current) throw new FrontMatterError(`line ${i + 1}: a list item outside anchors, links or tags`);
      if (item[1].trim()) out[current].push(item[1].trim());
      continue;
    }
    const field = /^([a-z_]+):\s*(.*)$/.exec(line);
    if (!field) throw new FrontMatterError(`line ${i + 1}: expected "field: value" (fields: ${FIELDS})`);
    const [, name, value] = field;
    if ((SCALARS as readonly string[]).includes(name)) {
      out[name as (typeof SCALARS)[number]] = value.trim();
      current = null;
    } else if ((LISTS as readonly string[]).includes(name)) {
      current = name as (typeof LISTS)[number];
      const inline = value.trim();
      if (inline && inline !== '[]') {
        const flow = /^\[(.*)\]$/.exec(inline);
        if (!flow) throw new FrontMatterError(`line ${i + 1}: ${name} is a list: one "  - item" per line, or [a, b]`);
        out[current].push(
          ...flow[1]
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        );
      }
    } else {
      throw new FrontMatterError(`line ${i + 1}: unknown field "${name}" (fields: ${FIELDS})`);
    }
  }
  for (const name of SCALARS) {
    if (!out[name]) throw new FrontMatterError(`${name} is empty: every memory has a ${name}`);
  }
  out.body = lines
    .slice(end + 1)
    .join('\n')
    .replace(/^\n/, '');
  return out;
}

// Sets one property in a JSON-with-comments file by editing only its span: the new property goes
// after the object's last one (after that line's comment, in the file's own indentation, keeping
// its trailing-comma style), or an existing value is replaced where it stands. Nothing else in the
// file moves, so comments and formatting stay byte for byte.

import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function indentAt(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, offset)))![0];
}

/** The file's indentation unit (its first indented line), two spaces when it has none. */
function indentUnit(text: string): string {
  return /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ';
}

function render(value: unknown, indent: string, unit: string, eol: string): string {
  return JSON.stringify(value, null, unit).replace(/\n/g, eol + indent);
}

/** Inserts `"name": value` as the last property of `object`. */
function insertProperty(text: string, object: Node, name: string, value: unknown): string {
  const unit = indentUnit(text);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const props = object.children ?? [];
  const objectIndent = indentAt(text, object.offset);
  if (!props.length) {
    const compact = !text.slice(object.offset, object.offset + object.length).includes('\n');
    if (compact)
      return (
        text.slice(0, object.offset) +
        `{${JSON.stringify(name)}: ${JSON.stringify(value)}}` +
        text.slice(object.offset + object.length)
      );
    // An empty object spread over lines: the property goes on its own line inside.
    const inner = objectIndent + unit;
    const body = `{${eol}${inner}${JSON.stringify(name)}: ${render(value, inner, unit, eol)}${eol}${objectIndent}}`;
    return text.slice(0, object.offset) + body + text.slice(object.offset + object.length);
  }
  const last = props[props.length - 1];
  const end = last.offset + last.length;
  const newline = text.indexOf('\n', end);
  const lineRest = text.slice(end, newline < 0 ? text.length : newline).replace(/\r$/, '');
  const tail = /^(\s*)(,?)(\s*(?:\/\/.*|\/\*.*?\*\/\s*)?)$/.exec(lineRest);
  const propIndent = indentAt(text, last.offset);
  const multiline = newline >= 0 && tail && lineStart(text, last.offset) !== lineStart(text, object.offset);
  if (multiline) {
    // One property per line: a comma after the last one (if it had none), the new one on the next line.
    const hadComma = tail[2] === ',';
    const rendered = render(value, propIndent, unit, eol);
    const property = `${propIndent}${JSON.stringify(name)}: ${rendered}${hadComma ? ',' : ''}`;
    const lineEnd = end + lineRest.length;
    const before = hadComma ? text.slice(0, lineEnd) : text.slice(0, end) + ',' + text.slice(end, lineEnd);
    return before + eol + property + text.slice(lineEnd);
  }
  // A one-line object: the property goes right after the last one.
  return text.slice(0, end) + `, ${JSON.stringify(name)}: ${JSON.stringify(value)}` + text.slice(end);
}

/**
 * `text` with the property at `path` (object keys) set to `value`, creating the objects on the way;
 * undefined when something on the path is not an object.
 */
export function setJsoncProperty(text: string, path: string[], value: unknown): string | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true });
  if (!root || root.type !== 'object') return undefined;
  const existing = findNodeAtLocation(root, path);
  if (existing) {
    const unit = indentUnit(text);
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    const replaced = render(value, indentAt(text, existing.parent?.offset ?? existing.offset), unit, eol);
    return text.slice(0, existing.offset) + replaced + text.slice(existing.offset + existing.length);
  }
  // The deepest object on the path that exists takes the rest of the path as one nested value.
  let object = root;
  let depth = 0;
  while (depth < path.length - 1) {
    const next = findNodeAtLocation(root, path.slice(0, depth + 1));
    if (!next) break;
    if (next.type !== 'object') return undefined;
    object = next;
    depth++;
  }
  const nested = path.slice(depth + 1).reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
  return insertProperty(text, object, path[depth], nested);
}

// Where symbols are defined, by precise patterns per language: functions, classes and types
// (TypeScript/JavaScript, Go, Python, shell), Go struct fields and their JSON names, Terraform
// blocks (variable, output, module, resource, data), YAML keys and Kubernetes resource names,
// Makefile targets, Dockerfile ARG/ENV, command-line flags and Helm values' dotted paths
// (helmValues.ts). Each definition carries the line span of its own text, which is what a symbol's
// fingerprint covers.

import { isValuesFile, valuePaths } from './helmValues';
import { baseName } from '../text/paths';
import type { SymbolDefinition } from './symbolDefinition';

export type { SymbolDefinition } from './symbolDefinition';

/**
 * What a definition is, as drift compares it when a symbol moves: its kind, a Terraform block's type
 * with it (a variable and an output of one name are two things).
 */
export function definitionKind(d: Pick<SymbolDefinition, 'kind' | 'block'>): string {
  return d.block ? `${d.kind} ${d.block}` : d.kind;
}

/** The kinds of a name's definitions in one file, as drift stores them: sorted, comma-separated; null: none. */
export function kindsOf(defs: ReadonlyArray<Pick<SymbolDefinition, 'kind' | 'block'>>): string | null {
  return defs.length ? [...new Set(defs.map(definitionKind))].sort().join(',') : null;
}

type Finder = (lines: string[]) => SymbolDefinition[];

function extensionOf(path: string): string {
  const base = baseName(path).toLowerCase();
  if (base === 'makefile' || base.endsWith('.mk')) return 'make';
  if (base === 'dockerfile' || base.startsWith('dockerfile.') || base.endsWith('.dockerfile')) return 'docker';
  const dot = base.lastIndexOf('.');
  return dot < 0 ? '' : base.slice(dot + 1);
}

/**
 * The end of a block opened on `start`: where braces balance again (strings are not parsed; good enough for
 * definitions).
 */
function braceEnd(lines: string[], start: number): number {
  let depth = 0;
  let opened = false;
  for (let i = start; i < lines.length && i < start + 5000; i++) {
    const text = lines[i].replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""').replace(/\/\/.*$/, '');
    for (const ch of text) {
      if (ch === '{') {
        depth++;
        opened = true;
      } else if (ch === '}') depth--;
    }
    if (opened && depth <= 0) return i;
    if (!opened && i > start + 2) return start;
    if (!opened && /;\s*$/.test(text)) return i;
  }
  return start;
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** The end of an indentation block whose header is `start` (Python, YAML). */
function indentEnd(lines: string[], start: number, indent: number): number {
  let end = start;
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i];
    if (!line.trim()) continue;
    if (indentOf(line) <= indent) break;
    end = i;
  }
  return end;
}

/** Comment lines directly above a definition belong to it (Go doc comments, kubebuilder markers). */
function withLeadingComments(lines: string[], start: number, comment: RegExp): number {
  let first = start;
  while (first > 0 && comment.test(lines[first - 1])) first--;
  return first;
}

const findTypeScript: Finder = (lines) => {
  const out: SymbolDefinition[] = [];
  const top =
    /^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(function\*?|class|interface|type|enum|const|let|var)\s+([A-Za-z_$][\w$]*)/;
  const method =
    /^\s+(?:public\s+|private\s+|protected\s+|static\s+|async\s+|readonly\s+)*([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\([^)]*\)\s*(?::\s*[^{=]+)?\{\s*$/;
  lines.forEach((line, i) => {
    const m = top.exec(line);
    // An indented const/let/var is a local of some function, not a definition a document names.
    if (m && /^(const|let|var)$/.test(m[1]) && /^\s/.test(line)) return;
    if (m) {
      out.push({
        name: m[2],
        start: withLeadingComments(lines, i, /^\s*(\/\/|\*|\/\*\*)/),
        end: braceEnd(lines, i),
        kind: m[1].startsWith('function')
          ? 'function'
          : m[1] === 'const' || m[1] === 'let' || m[1] === 'var'
            ? 'variable'
            : 'type',
      });
      return;
    }
    const n = method.exec(line);
    if (n && !['if', 'for', 'while', 'switch', 'catch', 'return', 'function'].includes(n[1]))
      out.push({ name: n[1], start: i, end: braceEnd(lines, i), kind: 'function' });
  });
  return out;
};

const findGo: Finder = (lines) => {
  const out: SymbolDefinition[] = [];
  const comment = /^\s*\/\//;
  let struct: { end: number } | null = null;
  lines.forEach((line, i) => {
    if (struct && i > struct.end) struct = null;
    let m = /^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/.exec(line);
    if (m) {
      out.push({
        name: m[1],
        start: withLeadingComments(lines, i, comment),
        end: braceEnd(lines, i),
        kind: 'function',
      });
      return;
    }
    m = /^type\s+([A-Za-z_]\w*)\s+(struct|interface)?/.exec(line);
    if (m) {
      const end = /\{\s*$/.test(line) ? braceEnd(lines, i) : i;
      out.push({ name: m[1], start: withLeadingComments(lines, i, comment), end, kind: 'type' });
      if (m[2] === 'struct') struct = { end };
      return;
    }
    m = /^(?:const|var)\s+([A-Za-z_]\w*)/.exec(line);
    if (m) {
      out.push({ name: m[1], start: withLeadingComments(lines, i, comment), end: i, kind: 'variable' });
      return;
    }
    if (struct) {
      const field = /^\s+([A-Z]\w*)\s+[^\s=(]/.exec(line);
      if (field) {
        const start = withLeadingComments(lines, i, comment);
        out.push({ name: field[1], start, end: i, kind: 'field' });
        const tag = /json:"([A-Za-z_][\w-]*)/.exec(line);
        if (tag && tag[1] !== field[1]) out.push({ name: tag[1], start, end: i, kind: 'field' });
      }
    }
  });
  return out;
};

const findPython: Finder = (lines) => {
  const out: SymbolDefinition[] = [];
  lines.forEach((line, i) => {
    const m = /^(\s*)(?:async\s+)?(def|class)\s+([A-Za-z_]\w*)/.exec(line);
    if (m)
      out.push({
        name: m[3],
        start: i,
        end: indentEnd(lines, i, m[1].length),
        kind: m[2] === 'def' ? 'function' : 'type',
      });
  });
  return out;
};

const findShell: Finder = (lines) => {
  const out: SymbolDefinition[] = [];
  lines.forEach((line, i) => {
    const m = /^\s*(?:function\s+([A-Za-z_][\w-]*)(?:\s*\(\))?|([A-Za-z_][\w-]*)\s*\(\))\s*\{?/.exec(line);
    if (m) out.push({ name: m[1] ?? m[2], start: i, end: braceEnd(lines, i), kind: 'function' });
  });
  return out;
};

const findTerraform: Finder = (lines) => {
  const out: SymbolDefinition[] = [];
  lines.forEach((line, i) => {
    const m = /^\s*(variable|output|module|resource|data)\s+"([^"]+)"(?:\s+"([^"]+)")?\s*\{/.exec(line);
    if (!m) return;
    const end = braceEnd(lines, i);
    const names: string[] = [];
    if (m[1] === 'variable') names.push(m[2], `var.${m[2]}`);
    else if (m[1] === 'output') names.push(m[2], `output.${m[2]}`);
    else if (m[1] === 'module') names.push(m[2], `module.${m[2]}`);
    else if (m[1] === 'resource' && m[3]) names.push(`${m[2]}.${m[3]}`, m[3]);
    else if (m[1] === 'data' && m[3]) names.push(`data.${m[2]}.${m[3]}`);
    for (const name of names)
      out.push({ name, start: withLeadingComments(lines, i, /^\s*(#|\/\/)/), end, kind: 'terraform', block: m[1] });
  });
  return out;
};

const findYaml: Finder = (lines) => {
  const out: SymbolDefinition[] = [];
  let docStart = 0;
  const closeDocument = (end: number) => {
    // A Kubernetes resource is named by metadata.name; its text is the whole document.
    let kind: string | undefined;
    for (let i = docStart; i <= end; i++) {
      const k = /^kind:\s*["']?([A-Za-z]+)/.exec(lines[i]);
      if (k) kind = k[1];
      if (/^metadata:\s*$/.test(lines[i])) {
        for (let j = i + 1; j <= end && (!lines[j].trim() || /^\s/.test(lines[j])); j++) {
          const n = /^ {2}name:\s*["']?([A-Za-z0-9][\w.-]*)["']?\s*(#.*)?$/.exec(lines[j]);
          if (n) {
            out.push({ name: n[1], start: docStart, end, kind: 'resource', workload: kind });
            break;
          }
        }
      }
    }
  };
  lines.forEach((line, i) => {
    if (/^---/.test(line)) {
      closeDocument(i - 1);
      docStart = i + 1;
      return;
    }
    const m = /^(\s*)(-\s+)?["']?([A-Za-z_][\w./-]*)["']?\s*:(?:\s|$)/.exec(line);
    if (m) {
      const indent = m[1].length + (m[2]?.length ?? 0);
      let end = indentEnd(lines, i, indent);
      // A block sequence may sit at its key's own indentation (`ports:` then `- port: 443`).
      if (/:\s*(#.*)?$/.test(line) && end === i) {
        for (let j = i + 1; j < lines.length; j++) {
          if (!lines[j].trim()) continue;
          const k = indentOf(lines[j]);
          if (k > indent || (k === indent && /^\s*-(\s|$)/.test(lines[j]))) end = j;
          else break;
        }
      }
      out.push({ name: m[3], start: i, end, kind: 'key' });
    }
    // An Ansible task's result (`register: docker_result`) and a loop's variable (`loop_var: role_item`) declare names.
    const declared = /^\s*(?:-\s+)?(?:register|loop_var):\s*["']?([A-Za-z_]\w*)["']?\s*(#.*)?$/.exec(line);
    if (declared) out.push({ name: declared[1], start: i, end: i, kind: 'variable' });
  });
  closeDocument(lines.length - 1);
  return out;
};

const findMake: Finder = (lines) => {
  const out: SymbolDefinition[] = [];
  lines.forEach((line, i) => {
    const m = /^([A-Za-z0-9_][\w.-]*)\s*:(?!=)/.exec(line);
    if (!m) return;
    let end = i;
    while (end + 1 < lines.length && /^\t/.test(lines[end + 1])) end++;
    out.push({ name: m[1], start: i, end, kind: 'target' });
  });
  return out;
};

const findDocker: Finder = (lines) => {
  const out: SymbolDefinition[] = [];
  lines.forEach((line, i) => {
    const m = /^\s*(ARG|ENV)\s+([A-Za-z_]\w*)/i.exec(line);
    if (m) out.push({ name: m[2], start: i, end: i, kind: 'variable' });
  });
  return out;
};

/** Flags a program defines: argparse/click/commander/cobra/pflag/kingpin/flag-package calls and shell `case` arms. */
function findFlags(lines: string[]): SymbolDefinition[] {
  const out: SymbolDefinition[] = [];
  lines.forEach((line, i) => {
    for (const m of line.matchAll(/["'](--[a-z][a-z0-9-]*)["'=\s]/g))
      out.push({ name: m[1], start: i, end: i, kind: 'flag' });
    // Go's flag package takes `-name` and `--name` alike; `flag.StringVar(&v, "name", ...)` names it second.
    for (const m of line.matchAll(/\bflag\.\w+\((?:\s*&?[\w.]+\s*,)?\s*"([a-z][\w-]*)"/g)) {
      out.push(
        { name: `--${m[1]}`, start: i, end: i, kind: 'flag' },
        { name: `-${m[1]}`, start: i, end: i, kind: 'flag' },
      );
    }
    for (const m of line.matchAll(/\.(?:Persistent)?Flags?\(\)\.\w+\((?:\s*&?[\w.]+\s*,)?\s*"([a-z][\w-]*)"/g))
      out.push({ name: `--${m[1]}`, start: i, end: i, kind: 'flag' });
    // kingpin `app.Flag("name", …)` / `cmd.Flag(…)`, and pflag's package functions `pflag.StringP("name", …)`.
    for (const m of line.matchAll(/(?:\.Flag|\bpflag\.\w+)\((?:\s*&[\w.]+\s*,)?\s*"([a-z][\w.-]*)"/g))
      out.push({ name: `--${m[1]}`, start: i, end: i, kind: 'flag' });
    // commander `.option('-n, --name <value>', …)`, `.requiredOption(…)`: every long flag its spec names.
    for (const m of line.matchAll(/\.(?:requiredOption|option)\(\s*(["'`])([^"'`]*)\1/g))
      for (const flag of m[2].matchAll(/(?:^|[\s,|])(--[a-z][a-z0-9-]*)/g))
        out.push({ name: flag[1], start: i, end: i, kind: 'flag' });
    const arm = /^\s*(--[a-z][a-z0-9-]*)(?:\|[^)]*)?\)/.exec(line);
    if (arm) out.push({ name: arm[1], start: i, end: i, kind: 'flag' });
  });
  return out;
}

const FINDERS: Record<string, Finder> = {
  ts: findTypeScript,
  tsx: findTypeScript,
  js: findTypeScript,
  jsx: findTypeScript,
  mjs: findTypeScript,
  cjs: findTypeScript,
  go: findGo,
  py: findPython,
  sh: findShell,
  bash: findShell,
  tf: findTerraform,
  hcl: findTerraform,
  yaml: findYaml,
  yml: findYaml,
  make: findMake,
  docker: findDocker,
};

const PROSE = /\.(md|mdx|markdown|rst|adoc|asciidoc|txt|erb)$/i;

/** Whether drift looks for definitions in this file at all (prose mentions symbols; it does not define them). */
export function definesSymbols(path: string): boolean {
  return !PROSE.test(path) && (extensionOf(path) in FINDERS || !baseName(path).includes('.'));
}

export function findDefinitions(path: string, text: string): SymbolDefinition[] {
  if (!definesSymbols(path)) return [];
  const lines = text.split(/\r?\n/);
  const ext = extensionOf(path);
  const finder = FINDERS[ext] ?? (/^#!.*\b(ba)?sh\b/.test(lines[0] ?? '') ? findShell : null);
  const defs = finder ? finder(lines) : [];
  if (finder === findYaml && isValuesFile(path)) defs.push(...valuePaths(lines, defs));
  if (ext !== 'yaml' && ext !== 'yml' && ext !== 'tf' && ext !== 'hcl') defs.push(...findFlags(lines));
  return defs;
}

/** The text a symbol's fingerprint covers in one file: every definition of that name, in order. */
export function symbolText(lines: string[], defs: SymbolDefinition[]): string {
  return defs.map((d) => lines.slice(d.start, d.end + 1).join('\n')).join('\n\u0000\n');
}

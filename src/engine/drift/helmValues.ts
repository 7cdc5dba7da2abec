// Helm values as documents name them: a dotted path (`global.networkPolicy.enabled`) defined by the
// nested keys of a chart's values file and read by its templates (`.Values.global.networkPolicy.enabled`,
// `(.Values.global.networkPolicy).enabled`). Which chart a document means when several define the
// same path: the one whose folder the document is in (resolve.ts), else the one it names.

import { ancestors, baseName } from '../text/paths';
import type { SymbolDefinition } from './symbolDefinition';

/** What finding a chart asks of the workspace: whether a file is there. */
interface Files {
  isFile(path: string): boolean;
}

/** A chart's values files: `values.yaml`, `values-prod.yaml`, chart-testing's `ci/*-values.yaml`. */
const VALUES_FILE = /(^|\/)([\w.-]*-)?values[\w.-]*\.ya?ml$/i;
/** A chart's templates, where values are read. */
const TEMPLATE = /(^|\/)templates\/(.+\/)?[^/]+\.ya?ml$/i;
const KEY = /^(\s*)(-\s+)?["']?([A-Za-z_][\w-]*)["']?\s*:(?:\s|$)/;
const READ = /\.Values((?:\.[A-Za-z_]\w*)+)/g;
const READ_GROUPED = /\(\s*\.Values((?:\.[A-Za-z_]\w*)+)\s*\)((?:\.[A-Za-z_]\w*)+)/g;

export function isValuesFile(path: string): boolean {
  return VALUES_FILE.test(path);
}

/**
 * The dotted paths of a values file's nested keys (every tail of two keys or more), each spanning its
 * key's own definition (`keys`, from the YAML patterns). Keys inside a list item or a block scalar (`|`)
 * have no path of their own.
 */
export function valuePaths(lines: readonly string[], keys: readonly SymbolDefinition[]): SymbolDefinition[] {
  const spans = new Map(keys.filter((k) => k.kind === 'key').map((k) => [`${k.start}:${k.name}`, k.end]));
  const out: SymbolDefinition[] = [];
  const stack: Array<{ indent: number; name: string | null }> = [];
  let scalarIndent = -1;
  lines.forEach((line, i) => {
    if (!line.trim() || /^\s*#/.test(line)) return;
    const indent = line.length - line.trimStart().length;
    if (scalarIndent >= 0 && indent > scalarIndent) return;
    scalarIndent = -1;
    const m = KEY.exec(line);
    if (!m) return;
    const at = m[1].length + (m[2]?.length ?? 0);
    while (stack.length && stack[stack.length - 1].indent >= at) stack.pop();
    const inItem = !!m[2] || stack.some((s) => s.name === null);
    const path = [...stack.map((s) => s.name), m[3]];
    const end = spans.get(`${i}:${m[3]}`) ?? i;
    // Each tail is a name too: READMEs write `prometheusSpec.retention` for `prometheus.prometheusSpec.retention`,
    // and a chart may nest its defaults under a wrapper (Istio's `_internal_defaults_do_not_set.global...`).
    if (!inItem)
      for (let from = 0; from < path.length - 1; from++)
        out.push({ name: path.slice(from).join('.'), start: i, end, kind: 'key' });
    stack.push(m[2] ? { indent: m[1].length, name: null } : { indent: at, name: m[3] });
    if (/:\s*[|>][-+]?\d*\s*(#.*)?$/.test(line)) scalarIndent = at;
  });
  return out;
}

/** The values a chart template reads, one definition per line and path (kind `value`). */
export function valueReads(path: string, text: string): SymbolDefinition[] {
  if (!TEMPLATE.test(path) || !text.includes('.Values')) return [];
  const out: SymbolDefinition[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const names = new Set<string>();
    for (const m of line.matchAll(READ)) names.add(m[1].slice(1));
    for (const m of line.matchAll(READ_GROUPED)) names.add(`${m[1]}${m[2]}`.slice(1));
    for (const name of names) out.push({ name, start: i, end: i, kind: 'value' });
  });
  return out;
}

/** The chart a file belongs to: the innermost folder above it holding a Chart.yaml. */
export function chartOf(ws: Files, path: string): string | null {
  return ancestors(path).find((dir) => ws.isFile(`${dir}/Chart.yaml`)) ?? null;
}

/**
 * Of the charts `paths` belong to, the one a document names (`… a default NetworkPolicy for ztunnel`)
 * when it names exactly one of them; null otherwise, or when a path is in no chart.
 */
export function namedChart(ws: Files, paths: readonly string[], text: string): string | null {
  const charts = paths.map((p) => chartOf(ws, p));
  if (charts.some((c) => c === null)) return null;
  const distinct = [...new Set(charts as string[])];
  if (distinct.length < 2) return null;
  const named = distinct.filter((chart) => {
    const name = baseName(chart).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`(^|[^\\w-])${name}($|[^\\w-])`, 'i').test(text);
  });
  return named.length === 1 ? named[0] : null;
}

// Symbol resolution: a name written in a document (a function, a Helm value, a Terraform variable, an
// Ansible role, a program's flag) to where the workspace defines it. Symbols are looked up in the
// symbol index and watched at each definition site (a handful at most: a name defined everywhere is
// no reference to one thing); a name nothing defines is watched where a few files beside the
// document use it (mention.ts).

import { cliFiles, isAutomaticFlag } from './commands';
import type { RawReference } from './extract';
import { chartOf, isValuesFile, namedChart } from './helmValues';
import { mentionSites, Neighbours } from './mention';
import { POD_ORDINAL } from './target';
import { candidatesFor, dirOf, fileResolution, type Resolution } from './resolvePath';
import { basename, type Site, type Workspace } from './workspace';

const MAX_SYMBOL_SITES = 3;
/** How many leading folders two paths share. */
function sharedDepth(a: string, b: string): number {
  const x = a.split('/');
  const y = dirOf(b).split('/');
  let n = 0;
  while (n < x.length && n < y.length && x[n] && x[n] === y[n]) n++;
  return n;
}

/** This repository's program a command line runs (commands.ts), found from the document as a path would be. */
function programFiles(ws: Workspace, command: string, source: string | null): string[] {
  return cliFiles(ws, command, command.includes('/') ? candidatesFor(ws, command, source, 'path', null) : []);
}

/**
 * A name written in a code span of a document that nothing defines and no file or folder is named:
 * the few files beside the document that use it (mention.ts), each watched on its lines using it.
 */
function resolveMention(ws: Workspace, ref: RawReference, source: string | null, near: Neighbours): Resolution[] {
  const name = ref.symbol!;
  if (ref.form !== 'symbol' || ref.inBlock || ref.deliberate || !source) return [];
  if (ws.withBasename(name).length || ws.dirsNamed(name).length) return [];
  return mentionSites(near, name, source).map((path) => ({
    ok: true as const,
    form: ref.form,
    target: { path, kind: 'mention' as const, symbol: name },
  }));
}

export function resolveSymbol(
  ws: Workspace,
  ref: RawReference,
  source: string | null = null,
  near = new Neighbours(ws),
): Resolution[] {
  const name = ref.symbol!;
  if (ref.form === 'symbol' && !name.includes('.')) {
    const dirs = ws.dirsNamed(name);
    if (dirs.length === 1)
      return [{ ok: true, form: 'directory', target: { path: dirs[0], kind: 'dir', symbol: null } }];
  }
  // A template reading a Helm value does not define it: the reads are watched beside the definitions (below).
  const found = ws.sitesOf(name);
  const reads = found.filter((s) => s.defs.every((d) => d.kind === 'value'));
  let sites = found.filter((s) => !reads.includes(s));
  const pod = POD_ORDINAL.exec(name);
  if (!sites.length && pod)
    sites = ws.sitesOf(pod[1]).filter((s) => s.defs.some((d) => d.kind === 'resource' && d.workload === 'StatefulSet'));
  if (!sites.length) {
    if (ref.deliberate)
      return [{ ok: false, form: ref.form, detail: `${name} is not defined anywhere in the workspace` }];
    const undeclared = undeclaredVariable(ws, ref);
    if (undeclared) return [undeclared];
    if (!found.length) {
      const mentions = resolveMention(ws, ref, source, near);
      if (mentions.length) return mentions;
    }
    return [];
  }
  // A chart's README naming a value means that chart's value, not a namesake elsewhere: when some
  // definitions share folders with the document, only the closest are watched.
  if (source && sites.length > 1) {
    const depth = sites.map((s) => sharedDepth(dirOf(source), s.path));
    const best = Math.max(...depth);
    if (best > 0) sites = sites.filter((_, i) => depth[i] === best);
  }
  // A value several charts define, in a document outside them: the chart the document names.
  if (source && sites.length > 1) {
    const chart = namedChart(
      ws,
      sites.map((s) => s.path),
      ws.text(source) ?? '',
    );
    if (chart) sites = sites.filter((s) => chartOf(ws, s.path) === chart);
  }
  if (sites.length > MAX_SYMBOL_SITES) {
    return ref.deliberate
      ? [
          {
            ok: false,
            form: ref.form,
            state: 'ambiguous',
            detail: `ambiguous: ${name} is defined in ${sites.length} files`,
          },
        ]
      : [];
  }
  return [...sites, ...onlyReaders(ws, sites, reads)].map((s) => ({
    ok: true as const,
    form: ref.form,
    target: { path: s.path, kind: 'symbol' as const, symbol: name },
  }));
}

const terraformCache = new WeakMap<Workspace, boolean>();

/**
 * `var.region` written in a code span of prose, in a repository of Terraform, that no `variable
 * "region"` block declares: the doc names an input the configuration no longer has. (In a code block it
 * is as often the reader's own configuration calling the module, so only spans count.)
 */
function undeclaredVariable(ws: Workspace, ref: RawReference): Resolution | null {
  const m = /^var\.([A-Za-z_][\w-]*)$/.exec(ref.symbol!);
  if (!m || ref.inBlock || ref.form !== 'symbol') return null;
  let terraform = terraformCache.get(ws);
  if (terraform === undefined) terraformCache.set(ws, (terraform = ws.allFiles().some((p) => p.endsWith('.tf'))));
  if (!terraform) return null;
  return {
    ok: false,
    form: ref.form,
    detail: `${ref.symbol} is declared by no variable "${m[1]}" block in the workspace`,
  };
}

/**
 * The template that is the only one of its chart to read a value the chart defines: what makes the
 * documented value do anything, so deleting it is drift although the key stays (helmValues.ts).
 */
function onlyReaders(ws: Workspace, sites: readonly Site[], reads: readonly Site[]): Site[] {
  if (!reads.length) return [];
  const charts = new Set(sites.filter((s) => isValuesFile(s.path)).map((s) => chartOf(ws, s.path)));
  charts.delete(null);
  const out: Site[] = [];
  for (const chart of charts) {
    const readers = reads.filter((r) => chartOf(ws, r.path) === chart);
    if (readers.length === 1) out.push(readers[0]);
  }
  return out;
}

/**
 * An Ansible role: a `roles/<name>/` folder (the one closest to the document when several are), run
 * from its tasks/main.yml — what the role is, and what a rename of the role moves.
 */
export function resolveRole(ws: Workspace, ref: RawReference, source: string | null): Resolution[] {
  const name = ref.symbol!;
  const entry = (dir: string) =>
    ['tasks/main.yml', 'tasks/main.yaml'].map((f) => `${dir}/${f}`).find((p) => ws.isFile(p));
  let roles = ws.dirsNamed(name).filter((d) => basename(dirOf(d)) === 'roles' && entry(d));
  if (source && roles.length > 1) {
    const depth = roles.map((d) => sharedDepth(dirOf(source), `${d}/x`));
    roles = roles.filter((_, i) => depth[i] === Math.max(...depth));
  }
  if (roles.length > 1)
    return [
      {
        ok: false,
        form: 'role',
        state: 'ambiguous',
        detail: `ambiguous: ${roles.length} roles are named ${name} (${roles.slice(0, 5).join(', ')})`,
      },
    ];
  return roles.length ? fileResolution(ws, entry(roles[0])!, undefined, 'role') : [];
}

/**
 * A flag is a reference of the program its line runs, when that program is one of this repository's
 * and declares flags drift can see: it is watched where that program declares it. Declared elsewhere
 * only (a shared package), it is not tied to anything; declared nowhere, it is broken — unless the
 * argument parser adds it itself (`--help`). A generic flag (`--dry-run`, `-v`) after another program,
 * or on its own, is never tied to a script of ours that happens to declare it.
 */
export function resolveFlag(ws: Workspace, ref: RawReference, source: string | null): Resolution[] {
  const name = ref.symbol!;
  if (!ref.command) return [];
  const program = programFiles(ws, ref.command, source);
  if (!program.length) return [];
  const sites = ws.sitesOf(name).filter((s) => program.includes(s.path));
  if (sites.length)
    return sites.map((s) => ({
      ok: true as const,
      form: 'flag',
      target: { path: s.path, kind: 'symbol' as const, symbol: name },
    }));
  if (isAutomaticFlag(name) || ws.sitesOf(name).length) return [];
  const shown = program.slice(0, 3).join(', ') + (program.length > 3 ? ', …' : '');
  const detail = `${name} is not defined anywhere in the workspace: not by ${ref.command} (${shown}), nor elsewhere`;
  return [{ ok: false, form: 'flag', detail }];
}

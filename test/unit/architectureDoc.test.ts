// docs/architecture.md stays true: every repository path it names exists, every function it names
// in a step is declared in a file that step names (or in the class it is written on), every type
// it names is declared somewhere in src/, and its folder tree lists each folder directly under
// src/ and src/engine/ and nothing that is gone. Renaming or moving code fails here until the
// page says where it went.

import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..');
const DOC = join(ROOT, 'docs', 'architecture.md');
const TOP = ['src', 'test', 'bench', 'eval', 'scripts', 'plugins', 'docs'];
const CODE_DIRS = ['src', 'test', 'bench', 'eval', 'scripts'];

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function foldersIn(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).filter((name) => statSync(join(ROOT, dir, name)).isDirectory());
}

interface Declared {
  /** Every name the file declares: functions, classes, types, variables, and the members of its classes. */
  names: Set<string>;
  /** Per class, its members (methods, fields, accessors, parameter properties). */
  members: Map<string, Set<string>>;
}

const DECLARATIONS: Array<(node: ts.Node) => boolean> = [
  ts.isFunctionDeclaration,
  ts.isClassDeclaration,
  ts.isInterfaceDeclaration,
  ts.isTypeAliasDeclaration,
  ts.isEnumDeclaration,
  ts.isVariableDeclaration,
  ts.isMethodDeclaration,
  ts.isPropertyDeclaration,
  ts.isGetAccessor,
  ts.isSetAccessor,
];

/** What a TypeScript source declares, read from its syntax tree (a mention or a call declares nothing). */
function declared(source: string): Declared {
  const names = new Set<string>();
  const members = new Map<string, Set<string>>();
  const nameOf = (node: ts.Node): string | undefined => {
    const name = (node as { name?: ts.Node }).name;
    return name && (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) ? name.text : undefined;
  };
  const parameterProperty = (node: ts.Node) =>
    ts.isParameter(node) && (ts.getCombinedModifierFlags(node) & ts.ModifierFlags.ParameterPropertyModifier) !== 0;
  const declaration = (node: ts.Node) =>
    DECLARATIONS.some((is) => is(node)) || (parameterProperty(node) && ts.isConstructorDeclaration(node.parent));
  const visit = (node: ts.Node): void => {
    const name = declaration(node) ? nameOf(node) : undefined;
    if (name) names.add(name);
    if (ts.isClassDeclaration(node) && node.name) {
      const own = members.get(node.name.text) ?? new Set<string>();
      for (const member of node.members) {
        const memberName = nameOf(member);
        if (memberName) own.add(memberName);
        if (!ts.isConstructorDeclaration(member)) continue;
        for (const param of member.parameters.filter(parameterProperty)) own.add(nameOf(param) ?? '');
      }
      members.set(node.name.text, own);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('doc-check.ts', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS));
  return { names, members };
}

/** The page split into its fenced blocks and its prose items (a list item or paragraph each). */
function parse(doc: string): { fences: Array<{ heading: string; lines: string[] }>; items: string[] } {
  const fences: Array<{ heading: string; lines: string[] }> = [];
  const items: string[] = [];
  let heading = '';
  let fence: string[] | null = null;
  let item: string[] = [];
  const endItem = () => {
    if (item.length) items.push(item.join(' '));
    item = [];
  };
  for (const line of doc.split('\n')) {
    if (line.startsWith('```')) {
      endItem();
      if (fence) fences.push({ heading, lines: fence });
      fence = fence ? null : [];
      continue;
    }
    if (fence) {
      fence.push(line);
      continue;
    }
    if (line.startsWith('#')) heading = line.replace(/^#+\s*/, '');
    if (!line.trim() || line.startsWith('#') || /^\s*(\d+\.|-)\s/.test(line)) endItem();
    if (line.trim() && !line.startsWith('#')) item.push(line.trim());
  }
  endItem();
  return { fences, items };
}

/** Everything on the page that is no longer true of the repository at `root`. */
function problemsIn(doc: string, root: string): string[] {
  const problems: string[] = [];
  const { fences, items } = parse(doc);
  const sources = CODE_DIRS.flatMap((dir) => filesUnder(join(root, dir))).filter((f) => f.endsWith('.ts'));
  const srcFiles = sources.filter((f) => f.startsWith(join(root, 'src') + '/'));
  const texts = new Map<string, string>();
  const text = (file: string) => texts.get(file) ?? texts.set(file, readFileSync(file, 'utf8')).get(file)!;
  const parsed = new Map<string, Declared>();
  const of = (file: string) => parsed.get(file) ?? parsed.set(file, declared(text(file))).get(file)!;
  // Only files that spell the name are parsed: a handful per name, not all of src/.
  const declaring = (name: string) => srcFiles.filter((f) => text(f).includes(name) && of(f).names.has(name));
  const hasMember = (owner: string, member: string) =>
    declaring(owner).some((f) => of(f).members.get(owner)?.has(member));

  const tree = fences.find((f) => f.heading === 'Folder tree');
  if (!tree) problems.push('no fenced block under "## Folder tree"');
  const listed = new Set<string>();
  for (const line of tree?.lines ?? []) {
    const entry = line.match(/^(\S+\/)\s/)?.[1];
    if (!entry) continue;
    listed.add(entry);
    if (!existsSync(join(root, entry))) problems.push(`the tree lists ${entry}, which does not exist`);
  }
  for (const parent of ['src', 'src/engine']) {
    for (const folder of foldersIn(parent)) {
      if (!listed.has(`${parent}/${folder}/`)) problems.push(`the tree does not list ${parent}/${folder}/`);
    }
  }

  for (const item of items) {
    const spans = [...item.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    const named = spans
      .filter((s) => /^src\/\S+\.ts$/.test(s))
      .map((s) => join(root, s))
      .filter(existsSync);
    for (const span of spans) {
      if (TOP.some((top) => span.startsWith(`${top}/`))) {
        if (!existsSync(join(root, span))) problems.push(`${span} does not exist`);
        continue;
      }
      if (/^[\w.-]+\.(ts|mjs|cjs)$/.test(span)) {
        if (!sources.some((f) => f.endsWith(`/${span}`))) problems.push(`no file ${span}`);
        continue;
      }
      const call = span.match(/^(?:([A-Z]\w*)\.)?([a-z]\w*)\(\)$/);
      if (call) {
        const [, owner, name] = call;
        const where = owner ? `class ${owner}` : named.map((f) => f.slice(root.length + 1)).join(', ');
        const found = owner ? hasMember(owner, name) : named.some((f) => of(f).names.has(name));
        if (!where) problems.push(`${span}: the step names no src/ file that declares it`);
        else if (!found) problems.push(`${span} is not declared in ${where}`);
        continue;
      }
      const type = span.match(/^([A-Z][A-Za-z0-9]*)(?:\.([a-z]\w*))?$/);
      if (type) {
        if (!declaring(type[1]).length) problems.push(`${type[1]} is declared nowhere in src/`);
        else if (type[2] && !hasMember(type[1], type[2])) problems.push(`${span}: ${type[1]} has no ${type[2]}`);
      }
    }
  }
  return problems;
}

describe('docs/architecture.md stays true', () => {
  it('names only what exists and lists every folder of src/ and src/engine/', () => {
    assert.deepEqual(problemsIn(readFileSync(DOC, 'utf8'), ROOT), []);
  });

  it('notices a path that is gone, a function that moved, a missing folder and an unknown type', () => {
    const stale = [
      '## Folder tree',
      '',
      '```',
      'src/engine/   pure domain logic',
      'src/gone/     nothing any more',
      '```',
      '',
      '## Flows',
      '',
      '1. `save()` (`src/engine/memory/save.ts`) then `appendAudit()` writes the chain.',
      '2. `src/engine/memory/remember.ts`, `nowhere.ts` and `NoSuchClass`; `DriftTracker.nothing()`.',
      '3. `buildServer()` without a file, `Engine.remember()` with its class.',
    ].join('\n');
    const problems = problemsIn(stale, ROOT);
    const expected = [
      'the tree lists src/gone/, which does not exist',
      'the tree does not list src/host/',
      'the tree does not list src/engine/drift/',
      'appendAudit() is not declared in src/engine/memory/save.ts',
      'src/engine/memory/remember.ts does not exist',
      'no file nowhere.ts',
      'NoSuchClass is declared nowhere in src/',
      'DriftTracker.nothing() is not declared in class DriftTracker',
      'buildServer(): the step names no src/ file that declares it',
    ];
    for (const p of expected) assert.ok(problems.includes(p), `missed: ${p}\n${problems.join('\n')}`);
    for (const fine of ['save()', 'Engine.remember()', 'src/engine/memory/save.ts']) {
      assert.ok(!problems.some((p) => p.startsWith(fine)), `false alarm on ${fine}: ${problems.join('\n')}`);
    }
  });

  it('reads declarations from the syntax tree and leaves calls and mentions alone', () => {
    const source = [
      'export function save(ctx: unknown) { appendAudit(ctx); }',
      'export async function* indexWorkspace() {}',
      'export interface StoreAccess { use(): void }',
      'export const RPC_OPS = [];',
      'export class FolderStore {',
      '  readonly api = {};',
      '  constructor(private readonly ctx: unknown, plain: number) {}',
      '  private async elect(): Promise<void> { const handleMcp = async () => {}; this.run(); }',
      '  async *index() {}',
      '}',
      '// see saveAll() and mention(), and call(): none declared',
    ].join('\n');
    const { names, members } = declared(source);
    for (const name of [
      'save',
      'indexWorkspace',
      'StoreAccess',
      'RPC_OPS',
      'FolderStore',
      'elect',
      'handleMcp',
      'index',
    ]) {
      assert.ok(names.has(name), `missed ${name}`);
    }
    for (const name of ['appendAudit', 'saveAll', 'mention', 'call', 'run', 'plain'])
      assert.ok(!names.has(name), `false alarm: ${name}`);
    assert.deepEqual([...members.get('FolderStore')!].sort(), ['api', 'ctx', 'elect', 'index']);
  });
});

// What a symbol is in each language tree-sitter parses here: the declarations a reference can
// name, each as its whole declaration node (with what belongs to it: `export`, decorators, Rust
// attributes), at the top of the file or inside a class-like body (named `method` and
// `Class.method`). Function bodies are not entered: a local is no symbol a document names.

import type { Node } from '@vscode/tree-sitter-wasm';
import type { ParsedDeclaration } from '../../engine';

type Kind = ParsedDeclaration['kind'];

export interface LanguageRules {
  /** Declaration node types and their kind. */
  declarations: Record<string, Kind>;
  /** Declarations whose body holds members (classes, impls, modules). */
  containers: ReadonlySet<string>;
  /** Nodes passed through on the way to declarations: bodies, lists, blocks at the top. */
  transparent: ReadonlySet<string>;
  /** Nodes that wrap one declaration and belong to it (`export`, decorators). */
  wrappers: ReadonlySet<string>;
  /** Declarations that name several things (`const a = 1, b = 2`): their item types. */
  lists?: Record<string, ReadonlySet<string>>;
  /** Sibling nodes just above a declaration that belong to it (Rust `#[derive]`). */
  leading?: ReadonlySet<string>;
  /** The names a declaration defines, when not its `name` field. */
  names?: (node: Node) => string[];
  /** The container a top-level declaration is a member of (a Go method's receiver type). */
  owner?: (node: Node) => string | null;
}

const set = (...types: string[]): ReadonlySet<string> => new Set(types);

/** The last segment of a qualified or generic name: `a::Foo<T>` → `Foo`, `*Server` → `Server`. */
function bareName(text: string): string {
  const plain = text.replace(/<[^]*>$|\[[^]*\]$/, '').replace(/^[*&\s]+|^&?mut\s+/, '');
  return plain.split(/::|\./).pop()!.trim();
}

function nameOf(node: Node): string[] {
  const name = node.childForFieldName('name');
  return name ? [bareName(name.text)] : [];
}

const FUNCTION_VALUES = set(
  'arrow_function',
  'function_expression',
  'function',
  'generator_function',
  'generator_function_declaration',
);

const ECMASCRIPT: LanguageRules = {
  declarations: {
    function_declaration: 'function',
    generator_function_declaration: 'function',
    function_signature: 'function',
    class_declaration: 'type',
    abstract_class_declaration: 'type',
    interface_declaration: 'type',
    type_alias_declaration: 'type',
    enum_declaration: 'type',
    lexical_declaration: 'variable',
    variable_declaration: 'variable',
    internal_module: 'type',
    module: 'type',
    method_definition: 'function',
    method_signature: 'function',
    abstract_method_signature: 'function',
    public_field_definition: 'variable',
    field_definition: 'variable',
    property_signature: 'variable',
  },
  containers: set(
    'class_declaration',
    'abstract_class_declaration',
    'interface_declaration',
    'internal_module',
    'module',
  ),
  // `namespace X {}` is an expression statement; method decorators are the class body's, just above the method.
  transparent: set('class_body', 'interface_body', 'object_type', 'statement_block', 'expression_statement'),
  wrappers: set('export_statement', 'ambient_declaration'),
  leading: set('decorator'),
  lists: { lexical_declaration: set('variable_declarator'), variable_declaration: set('variable_declarator') },
  names: (node) => {
    if (node.type === 'public_field_definition' || node.type === 'field_definition') {
      const name = node.childForFieldName('name') ?? node.childForFieldName('property');
      return name ? [bareName(name.text)] : [];
    }
    return nameOf(node);
  },
};

const GO: LanguageRules = {
  declarations: {
    function_declaration: 'function',
    method_declaration: 'function',
    type_declaration: 'type',
    const_declaration: 'variable',
    var_declaration: 'variable',
  },
  containers: set(),
  transparent: set(),
  wrappers: set(),
  lists: {
    type_declaration: set('type_spec', 'type_alias'),
    const_declaration: set('const_spec'),
    var_declaration: set('var_spec', 'var_spec_list'),
  },
  names: (node) =>
    node
      .childrenForFieldName('name')
      .filter((n): n is Node => !!n)
      .map((n) => n.text),
  owner: (node) => {
    if (node.type !== 'method_declaration') return null;
    const receiver = node.childForFieldName('receiver')?.namedChildren.find((c) => c?.type === 'parameter_declaration');
    const type = receiver?.childForFieldName('type');
    return type ? bareName(type.text) : null;
  },
};

const PYTHON: LanguageRules = {
  declarations: { function_definition: 'function', class_definition: 'type' },
  containers: set('class_definition'),
  transparent: set('block'),
  wrappers: set('decorated_definition'),
};

const RUST: LanguageRules = {
  declarations: {
    function_item: 'function',
    function_signature_item: 'function',
    struct_item: 'type',
    enum_item: 'type',
    union_item: 'type',
    trait_item: 'type',
    impl_item: 'type',
    type_item: 'type',
    const_item: 'variable',
    static_item: 'variable',
    mod_item: 'type',
    macro_definition: 'function',
  },
  containers: set('trait_item', 'impl_item', 'mod_item'),
  transparent: set('declaration_list'),
  wrappers: set(),
  leading: set('attribute_item'),
  names: (node) => {
    if (node.type !== 'impl_item') return nameOf(node);
    const type = node.childForFieldName('type');
    return type ? [bareName(type.text)] : [];
  },
};

const JAVA: LanguageRules = {
  declarations: {
    class_declaration: 'type',
    interface_declaration: 'type',
    enum_declaration: 'type',
    record_declaration: 'type',
    annotation_type_declaration: 'type',
    method_declaration: 'function',
    constructor_declaration: 'function',
    field_declaration: 'variable',
    constant_declaration: 'variable',
  },
  containers: set(
    'class_declaration',
    'interface_declaration',
    'enum_declaration',
    'record_declaration',
    'annotation_type_declaration',
  ),
  transparent: set('class_body', 'interface_body', 'enum_body', 'enum_body_declarations', 'annotation_type_body'),
  wrappers: set(),
  lists: { field_declaration: set('variable_declarator'), constant_declaration: set('variable_declarator') },
};

const RUBY: LanguageRules = {
  declarations: { method: 'function', singleton_method: 'function', class: 'type', module: 'type' },
  containers: set('class', 'module'),
  transparent: set('body_statement'),
  wrappers: set(),
};

const BASH: LanguageRules = {
  declarations: { function_definition: 'function' },
  containers: set(),
  transparent: set(),
  wrappers: set(),
};

/** Grammar (its .wasm is `tree-sitter-<grammar>.wasm`) → rules. */
export const GRAMMARS: Record<string, LanguageRules> = {
  typescript: ECMASCRIPT,
  tsx: ECMASCRIPT,
  javascript: ECMASCRIPT,
  go: GO,
  python: PYTHON,
  rust: RUST,
  java: JAVA,
  ruby: RUBY,
  bash: BASH,
};

/** File extension → grammar. */
export const EXTENSIONS: Record<string, string> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  go: 'go',
  py: 'python',
  pyi: 'python',
  rs: 'rust',
  java: 'java',
  rb: 'ruby',
  sh: 'bash',
  bash: 'bash',
};

function children(node: Node): Node[] {
  return node.namedChildren.filter((c): c is Node => !!c);
}

/** Where a declaration's own text starts: at its wrapper, or at the attributes just above it. */
function spanStart(node: Node, rules: LanguageRules): Node {
  let first = node;
  for (let prev = node.previousNamedSibling; prev && rules.leading?.has(prev.type); prev = prev.previousNamedSibling)
    first = prev;
  return first;
}

/** Every declaration in a parsed file, by the language's rules. */
export function declarationsIn(root: Node, rules: LanguageRules): ParsedDeclaration[] {
  const out: ParsedDeclaration[] = [];
  const emit = (name: string, first: Node, last: Node, kind: Kind, scope: ParsedDeclaration['scope']) => {
    // A destructuring pattern (`const { a, b } = …`) names no one symbol.
    if (name && !/[\s{}()[\],;'"`]/.test(name))
      out.push({
        name,
        from: first.startIndex,
        to: last.endIndex,
        start: first.startPosition.row,
        end: last.endPosition.row,
        kind,
        scope,
      });
  };
  const names = (node: Node) => (rules.names ?? nameOf)(node);

  const visit = (node: Node, owners: string[], span: Node | null) => {
    for (const child of children(node)) {
      if (rules.wrappers.has(child.type)) {
        visit(child, owners, span ?? child);
        continue;
      }
      const kind = rules.declarations[child.type];
      if (!kind) {
        if (rules.transparent.has(child.type)) visit(child, owners, null);
        continue;
      }
      const outer = span ?? child;
      const first = spanStart(outer, rules);
      const scope = owners.length ? 'member' : 'module';
      const items = rules.lists?.[child.type];
      if (items) {
        // `const a = 1` is the whole statement; `const a = 1, b = 2` names each by its own declarator.
        const found = collect(child, items);
        for (const item of found) {
          const itemKind =
            kind === 'variable' && FUNCTION_VALUES.has(item.childForFieldName('value')?.type ?? '') ? 'function' : kind;
          for (const name of names(item)) {
            if (found.length === 1) emitNamed(name, first, outer, itemKind, scope, owners);
            else emitNamed(name, item, item, itemKind, scope, owners);
          }
        }
        continue;
      }
      const owner = rules.owner?.(child) ?? null;
      const declared = names(child);
      for (const name of declared)
        emitNamed(name, first, outer, kind, owner ? 'member' : scope, owner ? [...owners, owner] : owners);
      if (rules.containers.has(child.type) && declared.length) {
        const body = child.childForFieldName('body') ?? child;
        visit(body, [...owners, declared[0]], null);
      }
    }
  };

  // A member is named bare, and qualified by each tail of its owners: `total`, `Invoice.total`,
  // `Billing.Invoice.total`.
  const emitNamed = (
    name: string,
    first: Node,
    last: Node,
    kind: Kind,
    scope: ParsedDeclaration['scope'],
    owners: string[],
  ) => {
    emit(name, first, last, kind, scope);
    for (let i = owners.length - 1; i >= 0; i--) emit(`${owners.slice(i).join('.')}.${name}`, first, last, kind, scope);
  };

  visit(root, [], null);
  return out;
}

/** The items of a list declaration, one level of grouping deep (Go's `var ( … )`). */
function collect(node: Node, items: ReadonlySet<string>): Node[] {
  const out: Node[] = [];
  for (const child of children(node)) {
    if (child.type.endsWith('_list') && items.has(child.type))
      out.push(...children(child).filter((c) => items.has(c.type)));
    else if (items.has(child.type)) out.push(child);
  }
  return out;
}

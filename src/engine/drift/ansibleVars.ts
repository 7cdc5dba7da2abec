// Ansible variables a role or playbook uses: `{{ docker_edition }}` in a task, a handler or a Jinja
// template. Such a use is a reference when, first seen, some declaration defines the name anywhere
// in the workspace — a YAML key (defaults/, vars/, group_vars/, host_vars/, a `vars:` block, a
// `set_fact`, a role's parameters) or a `register:`/`loop_var:` (symbols.ts) — and it is reported
// only when no declaration defines it any more: a declaration moved elsewhere, or its value edited,
// leaves the task as true as it was. A name nothing declared when first seen (a fact, an inventory
// or extra variable, a loop's `item`) is no reference at all, the Terraform rule's caution
// (resolveSymbol.ts) applied to names Ansible fills in from outside the repository.

import type { RawReference } from './extract';
import type { Resolution } from './resolvePath';
import type { Target } from './target';
import { declarations } from './declared';
import type { Workspace } from './workspace';

/** A role's or playbook's task, handler or template file: where variables are used. */
const USES = /(^|\/)(tasks|handlers)\/[^/]+\.ya?ml$|(^|\/)templates\/.+\.j2$/i;
/** The variable an expression starts with: `{{ name }}`, `{{ name | default(x) }}`, `{{ name.attr }}`, `{{ x[0] }}`. */
const USE = /\{\{-?\s*([A-Za-z_][A-Za-z0-9_]*)/g;
/** Names Ansible and Jinja fill in themselves (facts and magic variables have no declaration to lose). */
const BUILT_IN =
  /^(item|ansible_\w*|hostvars|groups|group_names|inventory_\w+|play_hosts|omit|lookup|query|q|range|true|false|none|True|False|None|loop|role_path|playbook_dir|environment)$/;

/** Whether a file is an Ansible task, handler or template file (its `{{ variable }}` uses are references). */
export function usesAnsibleVariables(path: string): boolean {
  return USES.test(path);
}

/** Each variable a task or template file uses, once, at its first line (1-based). */
export function variableUses(text: string): RawReference[] {
  const out = new Map<string, RawReference>();
  text.split(/\r?\n/).forEach((line, i) => {
    if (/^\s*#/.test(line)) return;
    for (const m of line.matchAll(USE)) {
      const name = m[1];
      if (BUILT_IN.test(name) || out.has(name)) continue;
      out.set(name, { raw: `{{ ${name} }}`, form: 'variable', line: i + 1, symbol: name });
    }
  });
  return [...out.values()];
}

/** A use resolved: watched at a declaration of its name, when one exists now; else no reference. */
export function resolveVariable(ws: Workspace, ref: RawReference): Resolution[] {
  const [first] = declarations(ws, ref.symbol!);
  return first ? [{ ok: true, form: 'variable', target: { path: first, kind: 'declared', symbol: ref.symbol! } }] : [];
}

/**
 * A declared variable checked now: current while any declaration defines it (followed to that file
 * when its own no longer does), gone when none does.
 */
export function declaredVerdict(
  ws: Workspace,
  target: Target,
  keep: { size: number | null; mtime_ms: number | null },
): {
  state: 'current' | 'gone';
  new_path: null;
  detail: string;
  size: number | null;
  mtime_ms: number | null;
  target_path?: string;
} {
  const found = declarations(ws, target.symbol!);
  if (!found.length)
    return {
      state: 'gone',
      new_path: null,
      detail: `${target.symbol} is declared nowhere in the workspace any more (it was in ${target.path})`,
      ...keep,
    };
  if (found.includes(target.path)) return { state: 'current', new_path: null, detail: 'still declared', ...keep };
  const stat = ws.stat(found[0]);
  return {
    state: 'current',
    new_path: null,
    target_path: found[0],
    detail: `still declared, in ${found[0]}`,
    size: stat?.size ?? null,
    mtime_ms: stat?.mtimeMs ?? null,
  };
}

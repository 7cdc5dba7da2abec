// Where an Ansible variable is declared now (ansibleVars.ts): any YAML key of that name — defaults/,
// vars/, group_vars/, host_vars/, a `vars:` block, `set_fact`, role parameters — or a `register:` or
// `loop_var:` (symbols.ts). A `declared` target's fingerprint is the name while any declaration holds.

import type { Workspace } from './workspace';

const DECLARING = /\.ya?ml$/i;

/** The YAML files that declare `name` now, sorted, a role's defaults/ and vars/ first. */
export function declarations(ws: Workspace, name: string): string[] {
  // Any YAML key counts (a task's `set_fact:` or `vars:` too): a name some key still spells is never reported.
  const paths = ws
    .sitesOf(name)
    .filter((s) => DECLARING.test(s.path) && s.defs.some((d) => d.kind !== 'value'))
    .map((s) => s.path);
  const rank = (p: string) => (/(^|\/)(defaults|vars)\//.test(p) ? 0 : 1);
  return paths.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** What a declared variable's fingerprint covers: its name, while any declaration defines it. */
export function declaredText(ws: Workspace, name: string | null): string | null {
  return name && declarations(ws, name).length ? name : null;
}

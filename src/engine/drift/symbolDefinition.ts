// A symbol's definition as drift's finders report it: the name, its lines and what kind of thing it
// is. A leaf of its own, so the patterns (symbols.ts), Helm values (helmValues.ts), the finders and
// the workspace that keeps them share it without importing each other.

export interface SymbolDefinition {
  name: string;
  /** 0-based, inclusive. */
  start: number;
  end: number;
  kind: 'function' | 'type' | 'field' | 'terraform' | 'key' | 'resource' | 'target' | 'flag' | 'variable' | 'value';
  /** For Kubernetes resources, the resource kind (StatefulSet pods are named `<name>-<n>`). */
  workload?: string;
  /** For Terraform, the block: `variable`, `output`, `module`, `resource` or `data`. */
  block?: string;
}

// Memories as read-only documents (`lore-memory:` URIs): what "Open" shows, what Recall previews,
// and where drift warnings about a memory appear in the Problems panel.

import * as vscode from 'vscode';
import type { Memory } from '../engine';
import type { LoreStores } from './stores';

export const MEMORY_SCHEME = 'lore-memory';

export function memoryUri(folder: string, key: string): vscode.Uri {
  return vscode.Uri.from({ scheme: MEMORY_SCHEME, path: `/${key}.md`, query: encodeURIComponent(folder) });
}

export function parseMemoryUri(uri: vscode.Uri): { folder: string; key: string } | undefined {
  if (uri.scheme !== MEMORY_SCHEME) return undefined;
  return { folder: decodeURIComponent(uri.query), key: uri.path.replace(/^\//, '').replace(/\.md$/, '') };
}

export function renderMemory(memory: Memory, flags: string[]): string {
  const facts = [
    `- **key** \`${memory.key}\` (v${memory.version})`,
    `- **status** ${memory.status}${memory.status_reason ? ` — ${memory.status_reason}` : ''}` +
      `${memory.superseded_by ? ` → \`${memory.superseded_by}\`` : ''}`,
    `- **basis** ${memory.basis}${memory.confidence !== null ? `, confidence ${memory.confidence}` : ''}`,
    `- **source** ` +
      `${memory.provenance.source}${memory.provenance.client ? ` (${memory.provenance.client})` : ''}, ` +
      `recorded ${memory.recorded_at}`,
    `- **valid** from ${memory.valid_from}${memory.valid_until ? ` until ${memory.valid_until}` : ''}`,
  ];
  if (flags.length) facts.push(`- **flags** ${flags.join(', ')}`);
  if (memory.anchors.length) facts.push(`- **anchors** ${memory.anchors.map((a) => `\`${a}\``).join(', ')}`);
  if (memory.links.length) facts.push(`- **links** ${memory.links.map((a) => `\`${a}\``).join(', ')}`);
  if (memory.tags.length) facts.push(`- **tags** ${memory.tags.join(', ')}`);
  return `# ${memory.title}\n\n> ${memory.description}\n\n${facts.join('\n')}\n\n---\n\n${memory.body}\n`;
}

export class MemoryDocuments implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly stores: LoreStores) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const target = parseMemoryUri(uri);
    if (!target) return '';
    try {
      const { memory, flags } = await this.stores.get(target.folder).api.get(target.key);
      return renderMemory(memory, flags);
    } catch (error) {
      return `# ${target.key}\n\nThis memory cannot be shown: ${(error as Error).message}\n`;
    }
  }

  /** Re-renders open memory documents after the store changed. */
  refresh(): void {
    for (const doc of vscode.workspace.textDocuments) if (doc.uri.scheme === MEMORY_SCHEME) this.changed.fire(doc.uri);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

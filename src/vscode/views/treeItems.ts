// How a LoreNode looks in a tree: codicon, label, description, tooltip (one-line description,
// status, basis), the context value the menus match on, and what a click does.

import * as vscode from 'vscode';
import { join } from 'node:path';
import { typeInfo, type MemorySummary } from '../../engine';
import { driftSentence } from '../editorWording';
import { canRelink } from '../drift/relink';
import { driftIcon } from '../drift/severity';
import { docTitle, kindLabel, kindReason, when } from './labels';
import { findingContextValue, memoryContextValue } from './contextValues';
import type { LoreNode } from './treeModel';

/** Where a person's kind for a document is kept (the committed file teammates share). */
export const KIND_SET_HERE = 'set in .lore/kinds';

function icon(id: string, color?: string): vscode.ThemeIcon {
  return color ? new vscode.ThemeIcon(id, new vscode.ThemeColor(color)) : new vscode.ThemeIcon(id);
}

function memoryIcon(m: MemorySummary): vscode.ThemeIcon {
  if (m.status === 'quarantined') return icon('shield', 'list.warningForeground');
  const id = typeInfo(m.type)?.icon ?? 'note';
  if (m.status === 'disputed') return icon(id, 'list.warningForeground');
  if (m.status === 'deprecated' || m.status === 'superseded') return icon(id, 'disabledForeground');
  return icon(id);
}

export function memoryTooltip(m: MemorySummary): vscode.MarkdownString {
  const lines = [
    `**${escapeMd(m.title)}**`,
    '',
    escapeMd(m.description),
    '',
    `\`${m.key}\` · ${m.type} · status **${m.status}** · basis **${m.basis}**`,
  ];
  if (m.status_reason) lines.push('', `Reason: ${escapeMd(m.status_reason)}`);
  if (m.superseded_by) lines.push('', `Superseded by \`${m.superseded_by}\``);
  if (m.flags.length) lines.push('', `Flags: ${m.flags.join(', ')}`);
  const updated = m.updated_at !== m.recorded_at ? ` · updated ${when(m.updated_at)}` : '';
  lines.push('', `Recorded ${when(m.recorded_at)}${updated}`);
  return new vscode.MarkdownString(lines.join('\n'));
}

function escapeMd(text: string): string {
  return text.replace(/[\\`*_{}[\]<>()#+!|]/g, '\\$&');
}

export function toTreeItem(node: LoreNode): vscode.TreeItem {
  switch (node.kind) {
    case 'folder': {
      const item = new vscode.TreeItem(
        vscode.Uri.file(node.folder).path.split('/').pop() || node.folder,
        vscode.TreeItemCollapsibleState.Expanded,
      );
      item.iconPath = icon('root-folder');
      item.tooltip = node.folder;
      item.contextValue = 'folder';
      return item;
    }
    case 'memory': {
      const m = node.memory;
      const item = new vscode.TreeItem(m.title, vscode.TreeItemCollapsibleState.None);
      item.id = `${node.folder}|${m.key}`;
      item.description = m.status === 'active' ? m.description : `${m.status} · ${m.description}`;
      item.tooltip = memoryTooltip(m);
      item.iconPath = memoryIcon(m);
      // `.anchored`: the menus offer Open Anchor only on a record that has something to open.
      item.contextValue = memoryContextValue(m.status, m.anchored === true);
      item.command = { command: 'lore.open', title: 'Open', arguments: [node] };
      return item;
    }
    case 'group': {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `${node.folder}|group|${node.group}`;
      item.description = String(node.count);
      item.iconPath = icon(node.group.startsWith('memory:') ? 'book' : 'folder-library');
      item.contextValue = 'group';
      return item;
    }
    case 'doc': {
      const uri = vscode.Uri.file(join(node.folder, node.doc.path));
      const item = new vscode.TreeItem(docTitle(node.doc.title, node.doc.path), vscode.TreeItemCollapsibleState.None);
      item.id = `${node.folder}|doc|${node.doc.path}`;
      item.resourceUri = uri;
      const rule = node.doc.kind_rule;
      // The mark first and a tag for an icon: a narrow sidebar cuts the description's end off.
      item.description = rule === undefined ? node.doc.path : `${KIND_SET_HERE} · ${node.doc.path}`;
      const facts = `\`${node.doc.path}\` · ${kindLabel(node.doc.kind)} · indexed ${when(node.doc.indexed_at)}`;
      const why = kindReason(node.doc);
      const set = rule === undefined ? '' : `\n\nKind ${KIND_SET_HERE}, by the rule \`${rule}\``;
      // A person's rule says why the kind is what it is; otherwise the classifier's signals do.
      const reason = set || (why ? `\n\n${escapeMd(why)}` : '');
      item.tooltip = new vscode.MarkdownString(
        `**${escapeMd(docTitle(node.doc.title, node.doc.path))}**\n\n${facts}${reason}`,
      );
      item.iconPath = icon(rule === undefined ? 'file' : 'tag');
      // `.corrected`: the menus offer Clear Kind Correction only where a person's kind applies.
      item.contextValue = rule === undefined ? 'doc' : 'doc.corrected';
      item.command = { command: 'vscode.open', title: 'Open', arguments: [uri] };
      return item;
    }
    case 'finding': {
      const f = node.finding;
      const { id, color } = driftIcon(f);
      const item = new vscode.TreeItem(f.reference.raw, vscode.TreeItemCollapsibleState.None);
      item.id = `${node.folder}|drift|${f.id}`;
      item.description = `${f.state} · ${f.source.key ?? f.source.path ?? ''}`;
      const where = `${f.source.key ?? f.source.path}${f.source.line ? ` line ${f.source.line}` : ''}`;
      const sentence = driftSentence(f, f.source.key ?? f.source.path ?? 'it');
      const evidence = `**${f.state}**: ${escapeMd(f.evidence.detail)}`;
      item.tooltip = new vscode.MarkdownString(`${escapeMd(sentence)}\n\n${evidence}\n\nReferenced by \`${where}\``);
      item.iconPath = icon(id, color);
      // `.unlinked`: a relocated flag or symbol, whose text stays as written (no Update, relink.ts).
      const unlinked = f.state === 'relocated' && !canRelink(f);
      item.contextValue = findingContextValue(f, { unlinked, status: node.status });
      item.command = { command: 'lore.openAnchor', title: 'Open Reference', arguments: [node] };
      return item;
    }
    case 'inbox': {
      const it = node.item;
      const item = new vscode.TreeItem(it.summary, vscode.TreeItemCollapsibleState.None);
      item.id = `${node.folder}|inbox|${it.id}`;
      item.description = [it.kind, `${it.risk} risk`, ...it.keys].join(' · ');
      item.tooltip = new vscode.MarkdownString(
        `**${it.kind}** (${it.risk} risk): ` +
          `${escapeMd(it.summary)}\n\n${it.keys.map((k) => `\`${k}\``).join(', ')}\n\nSuggested: ` +
          `${it.suggested_action}`,
      );
      item.iconPath = icon('inbox');
      item.contextValue = 'inbox';
      return item;
    }
    case 'message': {
      const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
      item.description = node.detail;
      item.tooltip = [node.text, node.detail].filter(Boolean).join(': ');
      item.iconPath = icon('info');
      item.contextValue = 'message';
      return item;
    }
  }
}

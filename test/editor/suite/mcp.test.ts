// Lore as the editor's MCP server: VS Code lists the server Lore's definition provider offers,
// starts it, and an agent-side tool call (vscode.lm.invokeTool, as a chat agent makes it) to
// `recall` answers with the seeded decision.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { SEEDED_DECISION } from '../seed';
import { activeLore, loreExtension, skip } from './lore';
import { ui, uiAvailable } from './ui';

/** Lore's tools as VS Code names them once the server runs (`mcp_<server>_<tool>`). */
function loreTools(): vscode.LanguageModelToolInformation[] {
  return vscode.lm.tools.filter((tool) => tool.tags.includes('mcp') && /lore/i.test(tool.name));
}

function resultText(result: vscode.LanguageModelToolResult): string {
  return result.content
    .map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : JSON.stringify(part)))
    .join('\n');
}

describe('Lore MCP server in VS Code', () => {
  before(async () => {
    await activeLore();
  });

  it('contributes an MCP server definition provider', () => {
    const providers = (loreExtension().packageJSON.contributes?.mcpServerDefinitionProviders ?? []) as { id: string }[];
    assert.ok(providers.length > 0, 'package.json contributes no mcpServerDefinitionProviders');
  });

  it('VS Code lists the Lore server', async function () {
    if (!uiAvailable()) return skip(this, 'needs the browser page (code-server run)');
    void vscode.commands.executeCommand('workbench.mcp.listServer');
    try {
      const rows = JSON.parse((await ui({ action: 'quickPickItems', prompt: 'server' })) ?? '[]') as string[];
      assert.ok(
        rows.some((row) => row.startsWith('Lore')),
        `MCP: List Servers shows Lore: ${JSON.stringify(rows)}`,
      );
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    }
  });

  it('VS Code starts it and its tools become available to agents', async () => {
    await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
    const names = loreTools().map((tool) => tool.name);
    assert.ok(
      names.some((name) => name.endsWith('_recall')),
      `a recall tool among ${JSON.stringify(names)}`,
    );
    assert.ok(
      names.some((name) => name.endsWith('_remember')),
      `a remember tool among ${JSON.stringify(names)}`,
    );
  });

  it('an agent-side call to recall returns the seeded decision', async () => {
    await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
    const recall = loreTools().find((tool) => tool.name.endsWith('_recall'));
    assert.ok(recall, 'Lore’s recall tool is not available');
    const result = await vscode.lm.invokeTool(recall.name, {
      input: { query: 'where does the jobs queue live' },
      toolInvocationToken: undefined,
    });
    const text = resultText(result);
    assert.ok(
      text.includes(SEEDED_DECISION.key),
      `recall answered without ${SEEDED_DECISION.key}: ${text.slice(0, 600)}`,
    );
  });
});

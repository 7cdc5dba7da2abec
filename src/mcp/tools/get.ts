// Tool `get`: one whole record (body included), fenced.

import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describeDrift, type GetResult, type WithDrift } from '../../engine';
import { fence } from '../fence';
import { driftFlag, key, memoryRecord } from '../schemas';
import type { ToolDeps } from './deps';
import { guarded, ok } from './result';

export function renderRecord({ memory: m, flags, archived, drift }: WithDrift<GetResult>): string {
  return [
    `${m.key} v${m.version}${archived ? ' (archived version)' : ''} — ` +
      `${m.status}${m.status_reason ? `: ${m.status_reason}` : ''}${flags.length ? ` [${flags.join(', ')}]` : ''}`,
    `title: ${m.title}`,
    `description: ${m.description}`,
    `basis: ${m.basis}${m.confidence !== null ? ` (confidence ${m.confidence})` : ''}; source: ${m.provenance.source}`,
    `valid from ${m.valid_from}${m.valid_until ? ` until ${m.valid_until}` : ''}; recorded ${m.recorded_at}`,
    ...(m.superseded_by ? [`superseded by: ${m.superseded_by}`] : []),
    ...(m.anchors.length ? [`anchors: ${m.anchors.join(', ')}`] : []),
    ...(m.links.length ? [`links: ${m.links.join(', ')}`] : []),
    ...(m.tags.length ? [`tags: ${m.tags.join(', ')}`] : []),
    ...describeDrift(drift),
    '',
    m.body,
  ].join('\n');
}

export function registerGet(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    'get',
    {
      title: 'Get a memory',
      description:
        'Read one memory in full, body included, by key (from recall or list). Pass version for a kept older version.',
      inputSchema: { key, version: z.number().int().min(1).optional() },
      outputSchema: {
        memory: memoryRecord,
        flags: z.array(z.string()),
        archived: z.boolean(),
        drift: z.array(driftFlag).optional(),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ key, version }) =>
      guarded(async () => {
        const result = await deps.access.use((engine) => engine.get(key, version));
        const block = fence(`memory ${key}`, [renderRecord(result)]);
        return ok({ ...result }, block.text);
      }),
  );
}

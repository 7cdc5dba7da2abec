// Every tool result a client receives fits the outputSchema the tool lists. Strict clients (the
// MCP Inspector, the SDK client after listTools) refuse a result with a field the schema does not
// name, and the engine's records carry fields agents are not shown (a record's signature, say),
// so each result is cut to its schema here, once for every tool, instead of in each tool.

import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolError } from './tools/result';

type Handler = (...args: unknown[]) => CallToolResult | Promise<CallToolResult>;

/** Makes every tool registered on `server` from now on answer with structured content cut to its outputSchema. */
export function shapeToolResults(server: McpServer): void {
  const register = server.registerTool.bind(server) as (
    name: string,
    config: { outputSchema?: unknown },
    handler: Handler,
  ) => unknown;
  const shaping = (name: string, config: { outputSchema?: unknown }, handler: Handler) => {
    if (!config.outputSchema) return register(name, config, handler);
    const given = config.outputSchema;
    const schema = given instanceof z.ZodType ? given : z.object(given as z.ZodRawShape);
    return register(name, config, async (...args: unknown[]) => {
      const result = await handler(...args);
      if (result.isError || result.structuredContent === undefined) return result;
      const shaped = schema.safeParse(result.structuredContent);
      // A result that does not fit is Lore's bug: an isError result says so instead of a reply the client refuses.
      if (!shaped.success)
        return toolError(
          new Error(`the ${name} result does not fit its output schema: ${z.prettifyError(shaped.error)}`),
        );
      return { ...result, structuredContent: shaped.data as Record<string, unknown> };
    });
  };
  server.registerTool = shaping as unknown as McpServer['registerTool'];
}

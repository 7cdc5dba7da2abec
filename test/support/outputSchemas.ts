// Checks tool results the way a strict MCP client does: every tool's structuredContent against the
// outputSchema the server lists for it, compiled with ajv (stricter than the SDK client's own
// instance: unknown keywords are refused too), and counts which tools were checked, so a test can
// require every tool to have been exercised.

import { strict as assert } from 'node:assert';
import Ajv, { type ValidateFunction } from 'ajv';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';

export interface SchemaChecker {
  /** Asserts that `result` fits `tool`'s listed outputSchema; returns it for chaining. */
  check(tool: string, result: CallToolResult, shape?: string): CallToolResult;
  /** The tools with at least one structured result checked, and the shapes seen per tool. */
  covered(): Map<string, Set<string>>;
}

export function schemaChecker(tools: Tool[]): SchemaChecker {
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictTuples: false });
  const validators = new Map<string, ValidateFunction>();
  for (const tool of tools) {
    assert.ok(tool.outputSchema, `${tool.name} lists an output schema`);
    const { $schema: _dialect, ...schema } = tool.outputSchema as Record<string, unknown>;
    validators.set(tool.name, ajv.compile(schema));
  }
  const seen = new Map<string, Set<string>>();
  return {
    check(tool, result, shape = 'success') {
      const validate = validators.get(tool);
      assert.ok(validate, `no tool ${tool} was listed`);
      if (result.isError) {
        // An error result carries text; if it carried structured content that too must fit.
        assert.ok(result.content.length > 0, `${tool} ${shape}: an error says what went wrong`);
        if (result.structuredContent === undefined) return result;
      }
      assert.ok(result.structuredContent, `${tool} ${shape}: a tool with an output schema returns structured content`);
      const valid = validate(result.structuredContent);
      assert.ok(
        valid,
        `${tool} ${shape}: ` +
          `${ajv.errorsText(validate.errors)}\n${JSON.stringify(result.structuredContent).slice(0, 2000)}`,
      );
      if (!seen.has(tool)) seen.set(tool, new Set());
      seen.get(tool)!.add(shape);
      return result;
    },
    covered: () => seen,
  };
}

// A stand-in for the Gemini API (generativelanguage v1beta) on 127.0.0.1, which Gemini CLI 0.61.0
// reaches through GOOGLE_GEMINI_BASE_URL. The main turn is streamed (`:streamGenerateContent?alt=sse`)
// with the tools as functionDeclarations (an MCP server's tools named `mcp_<server>_<tool>`). The
// CLI also asks side questions that want JSON (its model router's complexity score, and the like):
// those get an object that fits the schema they send. The scripted turn: while `tool` is not
// offered, call the CLI's own `list_directory` (a harmless wait, up to five times); once it is,
// call it once; then answer. Every request body is kept.

import type { ServerResponse } from 'node:http';
import { listenStandIn, type StandInModel } from './standInModel';

const WAIT_TOOL = 'list_directory';

interface Part {
  text?: string;
  functionCall?: { name: string; args: unknown };
  functionResponse?: { name: string; response: unknown };
}

const partsOf = (body: any): Part[] =>
  (Array.isArray(body?.contents) ? body.contents : []).flatMap((c: { parts?: Part[] }) => c.parts ?? []);

/** The responses to `tool` Gemini CLI sent back to the model, as JSON text. */
export function functionResponsesSent(requests: StandInModel['requests'], tool: string): string[] {
  const out = new Set<string>();
  for (const r of requests)
    for (const p of partsOf(r.body))
      if (p.functionResponse?.name === tool) out.add(JSON.stringify(p.functionResponse.response));
  return [...out];
}

/** A value that fits a (Gemini, upper-case typed) JSON schema: first enum value, 1, false, "stand-in". */
function fill(schema: any): unknown {
  if (!schema || typeof schema !== 'object') return 'stand-in';
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const type = String(schema.type ?? 'string').toUpperCase();
  if (type === 'OBJECT')
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, fill(v)]));
  if (type === 'ARRAY') return [];
  if (type === 'INTEGER' || type === 'NUMBER') return 1;
  if (type === 'BOOLEAN') return false;
  return 'stand-in';
}

function reply(res: ServerResponse, parts: Part[], stream: boolean): void {
  const chunk = {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 1, totalTokenCount: 11 },
  };
  if (stream) {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
  } else {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(chunk));
  }
}

/** Starts the stand-in Gemini API; it calls `tool` (as Gemini CLI names it) with `args`. */
export function startGeminiStandIn(tool: string, args: unknown): Promise<StandInModel> {
  return listenStandIn((path, body, res) => {
    if (path.endsWith(':countTokens')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"totalTokens":10}');
      return true;
    }
    const stream = path.endsWith(':streamGenerateContent');
    if (!stream && !path.endsWith(':generateContent')) return false;
    const config = body.generationConfig ?? {};
    if (config.responseMimeType === 'application/json') {
      reply(res, [{ text: JSON.stringify(fill(config.responseJsonSchema ?? config.responseSchema)) }], stream);
      return true;
    }
    const offered = new Set<string>(
      (body.tools ?? []).flatMap((t: { functionDeclarations?: Array<{ name: string }> }) =>
        (t.functionDeclarations ?? []).map((d) => d.name),
      ),
    );
    const parts = partsOf(body);
    const called = parts.some((p) => p.functionCall?.name === tool);
    const waits = parts.filter((p) => p.functionCall?.name === WAIT_TOOL).length;
    if (offered.has(tool) && !called) reply(res, [{ functionCall: { name: tool, args } }], stream);
    else if (!offered.has(tool) && !called && offered.has(WAIT_TOOL) && waits < 5)
      reply(res, [{ functionCall: { name: WAIT_TOOL, args: { dir_path: '.' } } }], stream);
    else reply(res, [{ text: 'Done.' }], stream);
    return true;
  });
}

// A stand-in for the OpenAI Responses API (POST /v1/responses, streamed) on 127.0.0.1, the wire
// Codex CLI 0.171.0 speaks to a custom model provider. Codex offers an MCP server's tools as one
// `namespace` tool (`mcp__lore`, its functions inside) and starts MCP servers without holding the
// first request for them, so the scripted turn is: while the namespace is not offered, call
// Codex's own `list_mcp_resources` for the `lore` server (Codex answers it once that server is up;
// at most WAIT_CALLS times); once it is offered, call `tool` in it once; then answer. Every request
// body is kept.

import type { ServerResponse } from 'node:http';
import { listenStandIn, type StandInModel } from './standInModel';

const WAIT_TOOL = 'list_mcp_resources';
const WAIT_CALLS = 10;

interface ResponsesItem {
  type: string;
  name?: string;
  namespace?: string;
  call_id?: string;
  output?: unknown;
}

const inputOf = (body: any): ResponsesItem[] => (Array.isArray(body?.input) ? body.input : []);

/** The outputs of `namespace`.`tool` calls Codex sent back to the model, as the model reads them. */
export function functionOutputsSent(requests: StandInModel['requests'], namespace: string, tool: string): string[] {
  const out = new Set<string>();
  for (const r of requests) {
    const items = inputOf(r.body);
    const ids = new Set(
      items
        .filter((i) => i.type === 'function_call' && i.namespace === namespace && i.name === tool)
        .map((i) => i.call_id),
    );
    for (const i of items) {
      if (i.type !== 'function_call_output' || !ids.has(i.call_id)) continue;
      const o = i.output;
      out.add(
        typeof o === 'string'
          ? o
          : (Array.isArray(o) ? o : [])
              .map((c: { text?: string }) => (typeof c.text === 'string' ? c.text : ''))
              .join(''),
      );
    }
  }
  return [...out];
}

function events(res: ServerResponse, id: number, item: Record<string, unknown>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (type: string, data: Record<string, unknown>) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send('response.created', { response: { id: `resp_${id}` } });
  send('response.output_item.done', { output_index: 0, item });
  const usage = { input_tokens: 10, input_tokens_details: null, output_tokens: 1, output_tokens_details: null };
  send('response.completed', { response: { id: `resp_${id}`, usage: { ...usage, total_tokens: 11 } } });
  res.end();
}

/** Starts the stand-in Responses API; it calls `tool` in the namespace `namespace` with `args`. */
export function startResponsesStandIn(namespace: string, tool: string, args: unknown): Promise<StandInModel> {
  let served = 0;
  return listenStandIn((path, body, res) => {
    if (!path.endsWith('/responses')) return false;
    served++;
    const items = inputOf(body);
    const offered = (body.tools ?? []).some((t: { type: string; name: string }) => t.name === namespace);
    const waits = items.filter((i) => i.type === 'function_call' && i.name === WAIT_TOOL).length;
    const called = items.some((i) => i.type === 'function_call' && i.namespace === namespace && i.name === tool);
    const call = (name: string, extra: Record<string, unknown>, input: unknown) => ({
      type: 'function_call',
      id: `fc_${served}`,
      call_id: `call_${served}`,
      name,
      ...extra,
      arguments: JSON.stringify(input),
    });
    if (offered && !called) events(res, served, call(tool, { namespace }, args));
    else if (!offered && !called && waits < WAIT_CALLS) events(res, served, call(WAIT_TOOL, {}, { server: 'lore' }));
    else {
      const text = { type: 'output_text', text: 'Done.', annotations: [] };
      events(res, served, { type: 'message', id: `msg_${served}`, role: 'assistant', content: [text] });
    }
    return true;
  });
}

// Stand-ins for model APIs on 127.0.0.1 that script a host's tool calls and log what the host sends:
// the shared listener (every request body kept, so a test reads what reached "the model"), and
// the Anthropic Messages API (streamed, as Claude Code asks for it). The Anthropic stand-in plays a
// script of tool calls in order, each once the host offers that tool (Claude Code connects MCP
// servers in the background: until a scripted tool is offered it calls the host's own
// WaitForMcpServers, up to five times), then answers with a text. Codex's and Gemini's wires are
// in ./standInOpenAI.ts and ./standInGemini.ts.

import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoggedRequest {
  path: string;
  body: any;
}

export interface StandInModel {
  url: string;
  requests: LoggedRequest[];
  close(): Promise<void>;
}

/** A request handler: answers and returns true, or returns false for a 404. */
export type StandInHandler = (path: string, body: any, res: ServerResponse) => boolean;

/** Listens on 127.0.0.1 (a free port), keeps every request, and lets `handle` answer. */
export async function listenStandIn(handle: StandInHandler): Promise<StandInModel> {
  const requests: LoggedRequest[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      let body: any;
      try {
        body = raw ? JSON.parse(raw) : {};
      } catch {
        body = { raw };
      }
      const path = (req.url ?? '').split('?')[0];
      requests.push({ path, body });
      if (req.method === 'POST' && handle(path, body, res)) return;
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One scripted tool call: the tool's name as the host offers it, and its input. */
export interface ScriptedCall {
  name: string;
  input: unknown;
}

/** Every text a request carries (system prompt, messages, tool results), for searching. */
export function textsSent(body: any): string[] {
  const texts: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') texts.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(body?.system);
  walk(body?.messages);
  return texts;
}

/** The results of `tool` a host sent back to the model, as the model would read them. */
export function toolResultsSent(requests: LoggedRequest[], tool: string): string[] {
  const out: string[] = [];
  for (const r of requests) {
    const ids = new Set<string>();
    for (const message of r.body?.messages ?? []) {
      if (!Array.isArray(message.content)) continue;
      for (const block of message.content) {
        if (block.type === 'tool_use' && block.name === tool) ids.add(block.id);
        if (block.type !== 'tool_result' || !ids.has(block.tool_use_id)) continue;
        const content = block.content;
        out.push(
          typeof content === 'string'
            ? content
            : (content ?? []).map((c: { type: string; text?: string }) => (c.type === 'text' ? c.text : '')).join(''),
        );
      }
    }
  }
  return [...new Set(out)];
}

function sse(res: ServerResponse, events: Array<[string, unknown]>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [event, data] of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  res.end();
}

const WAIT_TOOL = 'WaitForMcpServers';

/** The tool_use blocks this conversation already holds (the host replays the assistant's turns). */
function calls(body: any): string[] {
  const names: string[] = [];
  for (const m of body.messages ?? [])
    if (Array.isArray(m.content)) for (const b of m.content) if (b.type === 'tool_use') names.push(b.name);
  return names;
}

/** The scripted turn: the next step once its tool is offered, waiting for MCP servers before that. */
function nextCall(body: any, script: ScriptedCall[]): ScriptedCall | null {
  const offered = new Set<string>((body.tools ?? []).map((t: { name: string }) => t.name));
  const done = calls(body);
  const step = script[done.filter((n) => n !== WAIT_TOOL).length];
  if (!step) return null;
  if (offered.has(step.name)) return step;
  if (offered.has(WAIT_TOOL) && done.filter((n) => n === WAIT_TOOL).length < 5) return { name: WAIT_TOOL, input: {} };
  return null;
}

function answer(body: any, script: ScriptedCall[], finalText: string, id: number): Array<[string, unknown]> {
  const call = nextCall(body, script);
  const message = {
    id: `msg_${id}`,
    type: 'message',
    role: 'assistant',
    model: body.model ?? 'stand-in',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 1 },
  };
  const events: Array<[string, unknown]> = [['message_start', { type: 'message_start', message }]];
  const [block, delta, stop] = call
    ? [
        { type: 'tool_use', id: `toolu_${id}`, name: call.name, input: {} },
        { type: 'input_json_delta', partial_json: JSON.stringify(call.input) },
        'tool_use',
      ]
    : [{ type: 'text', text: '' }, { type: 'text_delta', text: finalText }, 'end_turn'];
  events.push(
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: block }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    [
      'message_delta',
      { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } },
    ],
    ['message_stop', { type: 'message_stop' }],
  );
  return events;
}

/** Starts the stand-in Anthropic API; it plays `script`, then answers `finalText`. */
export function startAnthropicStandIn(script: ScriptedCall[], finalText = 'Done.'): Promise<StandInModel> {
  let served = 0;
  return listenStandIn((path, body, res) => {
    if (path.endsWith('/v1/messages/count_tokens')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ input_tokens: 10 }));
      return true;
    }
    if (!path.endsWith('/v1/messages')) return false;
    served++;
    if (body.stream) sse(res, answer(body, script, finalText, served));
    else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `msg_${served}`,
          type: 'message',
          role: 'assistant',
          model: body.model,
          content: [{ type: 'text', text: 'Done.' }],
          stop_reason: 'end_turn',
          usage: { input_tokens: 10, output_tokens: 2 },
        }),
      );
    }
    return true;
  });
}

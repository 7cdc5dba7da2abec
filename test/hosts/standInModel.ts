// A stand-in for a model API on 127.0.0.1 that scripts a host's tool calls and logs what the host
// sends: the Anthropic Messages API (streamed, as Claude Code asks for it). A request that offers
// Lore's recall tool and carries no tool result yet gets a call to recall; any other request gets
// a short text answer. Every request body is kept, so a test reads what reached "the model".

import { createServer, type Server } from 'node:http';
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

function sse(res: import('node:http').ServerResponse, events: Array<[string, unknown]>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [event, data] of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  res.end();
}

/** The tools this conversation already called (the host replays the assistant's tool_use blocks). */
function called(body: any): Map<string, number> {
  const names = new Map<string, number>();
  for (const m of body.messages ?? [])
    if (Array.isArray(m.content))
      for (const b of m.content) if (b.type === 'tool_use') names.set(b.name, (names.get(b.name) ?? 0) + 1);
  return names;
}

/**
 * The scripted turn: call `tool` once it is offered; before that, if the host offers a way to wait
 * for its MCP servers (Claude Code connects them in the background), call that (up to five times);
 * then answer.
 */
function nextCall(body: any, tool: string, input: unknown): { name: string; input: unknown } | null {
  const offered = new Set<string>((body.tools ?? []).map((t: { name: string }) => t.name));
  const done = called(body);
  if (offered.has(tool) && !done.has(tool)) return { name: tool, input };
  if (!offered.has(tool) && offered.has(WAIT_TOOL) && (done.get(WAIT_TOOL) ?? 0) < 5)
    return { name: WAIT_TOOL, input: {} };
  return null;
}
const WAIT_TOOL = 'WaitForMcpServers';

function answer(body: any, tool: string, input: unknown, id: number): Array<[string, unknown]> {
  const call = nextCall(body, tool, input);
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
  if (call) {
    events.push(
      [
        'content_block_start',
        {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'tool_use', id: `toolu_${id}`, name: call.name, input: {} },
        },
      ],
      [
        'content_block_delta',
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.input) },
        },
      ],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      [
        'message_delta',
        { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 5 } },
      ],
    );
  } else {
    events.push(
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Done.' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      [
        'message_delta',
        { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } },
      ],
    );
  }
  events.push(['message_stop', { type: 'message_stop' }]);
  return events;
}

/** Starts the stand-in Anthropic API; it calls `tool` with `input` when offered it. */
export async function startAnthropicStandIn(tool: string, input: unknown): Promise<StandInModel> {
  const requests: LoggedRequest[] = [];
  let served = 0;
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
      if (req.method === 'POST' && path.endsWith('/v1/messages/count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: 10 }));
      } else if (req.method === 'POST' && path.endsWith('/v1/messages')) {
        served++;
        if (body.stream) sse(res, answer(body, tool, input, served));
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
      } else {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

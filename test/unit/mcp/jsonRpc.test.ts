// The JSON-RPC gate in front of the MCP server, fed generated bad input: every proper prefix of
// real messages, every field of them swapped for a wrong value, and oversized messages scanned
// for their id in random pieces. Every input is answered with a spec error code (or passed on
// when valid, or dropped only when it is a notification or a response, which JSON-RPC never
// answers), and the answer carries the request's id whenever that id is readable.

import { strict as assert } from 'node:assert';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  INVALID_PARAMS,
  INVALID_REQUEST,
  PARSE_ERROR,
  MAX_JSON_DEPTH,
  TopLevelIdScanner,
  inspectMessage,
  isMessageId,
  nestsDeeperThan,
} from '../../../src/mcp/jsonRpc';

const valid = [
  { jsonrpc: '2.0', id: 1, method: 'ping' },
  { jsonrpc: '2.0', id: 'a-2', method: 'tools/list', params: {} },
  { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'recall', arguments: { query: 'job queue' } } },
  {
    jsonrpc: '2.0',
    id: 4,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 5, result: {} },
];
const wrong: unknown[] = [null, true, false, 0, -1, 1.5, '', 'x', '1.0', [], [1], {}, { a: 1 }, 'tools/call'];

/** Deterministic pseudo-random numbers, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

describe('the JSON-RPC gate (generated bad input)', () => {
  let tried = 0;
  after(() => console.log(`      ${tried} generated inputs, every one answered or passed on as JSON-RPC says`));

  function checkAnswered(text: string, parsed?: Record<string, unknown>): void {
    tried++;
    const verdict = inspectMessage(text);
    if (verdict.kind === 'message') {
      assert.ok(JSONRPCMessageSchema.safeParse(verdict.message).success, text);
      return;
    }
    if (verdict.kind === 'drop') {
      assert.ok(
        parsed && !('id' in parsed && 'method' in parsed),
        `only notifications and responses go unanswered: ${text}`,
      );
      return;
    }
    const reply = verdict.reply as unknown as {
      jsonrpc: string;
      id: unknown;
      error: { code: number; message: string };
    };
    assert.equal(reply.jsonrpc, '2.0');
    assert.ok([PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS].includes(reply.error.code), text);
    assert.ok(reply.error.message.length > 10);
    const id = parsed && 'id' in parsed && isMessageId(parsed.id) ? parsed.id : null;
    assert.deepEqual(reply.id, id, text);
    if (!parsed) assert.equal(reply.error.code, PARSE_ERROR, text);
  }

  it('measures nesting by brackets outside strings only, escaped quotes included', () => {
    const nest = (n: number) => '['.repeat(n) + ']'.repeat(n);
    assert.equal(nestsDeeperThan(nest(MAX_JSON_DEPTH), MAX_JSON_DEPTH), false);
    assert.equal(nestsDeeperThan(nest(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH), true);
    // Brackets inside a string, after an escaped quote, do not count.
    const inString = JSON.stringify({ query: `${'['.repeat(500)} \\" ${'{'.repeat(500)}` });
    assert.equal(nestsDeeperThan(inString, MAX_JSON_DEPTH), false);
    // A string ending in an escaped backslash closes there: what follows counts.
    const afterBackslash = JSON.stringify(['\\']).slice(0, -1) + ',' + nest(MAX_JSON_DEPTH) + ']';
    assert.equal(nestsDeeperThan(afterBackslash, MAX_JSON_DEPTH), true);
    const verdict = inspectMessage(
      `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"arguments":{"a":${nest(1000)}}}}`,
    );
    assert.equal(verdict.kind, 'reply');
    const reply = (verdict as { reply: { id: unknown; error: { code: number; message: string } } }).reply;
    assert.equal(reply.id, 7);
    assert.equal(reply.error.code, INVALID_REQUEST);
    assert.match(reply.error.message, /nests JSON deeper than 64 levels/);
  });

  it('passes valid messages on unchanged', () => {
    for (const message of valid) {
      const verdict = inspectMessage(JSON.stringify(message));
      assert.equal(verdict.kind, 'message', JSON.stringify(message));
    }
  });

  it('answers every cut-off message with -32700', () => {
    for (const message of valid) {
      const text = JSON.stringify(message);
      for (let end = 1; end < text.length; end++) checkAnswered(text.slice(0, end));
    }
  });

  it('answers every field swapped for a wrong value, or a field added or removed', () => {
    for (const message of valid) {
      for (const field of ['jsonrpc', 'id', 'method', 'params', 'result']) {
        for (const value of [...wrong, undefined]) {
          const mutated: Record<string, unknown> = { ...message };
          if (value === undefined) delete mutated[field];
          else mutated[field] = value;
          checkAnswered(JSON.stringify(mutated), mutated);
        }
      }
      // Not an object at all: valid JSON, so -32600 rather than -32700, with no id to answer.
      for (const value of wrong) checkAnswered(JSON.stringify(value), {});
    }
  });

  it('finds the top-level id of oversized messages read in random pieces, never a nested one', () => {
    const next = random(14);
    for (let i = 0; i < 200; i++) {
      const id = i % 3 ? i : `id-${i}-"quoted"\\é`;
      const filler = 'x"\\é{['.repeat(1 + Math.floor(next() * 2000));
      const decoy = { id: 'nested', deeper: [{ id: 7 }], text: '"id": 99' };
      const message =
        i % 2
          ? {
              jsonrpc: '2.0',
              method: 'tools/call',
              params: { name: 'remember', arguments: { body: filler, decoy } },
              id,
            }
          : { id, jsonrpc: '2.0', method: 'tools/call', params: { decoy, body: filler } };
      const bytes = Buffer.from(JSON.stringify(message));
      const scanner = new TopLevelIdScanner();
      for (let at = 0; at < bytes.length;) {
        const size = 1 + Math.floor(next() * 4096);
        scanner.feed(bytes.subarray(at, at + size));
        at += size;
      }
      tried++;
      assert.deepEqual(scanner.id, id);
    }
    const noId = new TopLevelIdScanner();
    noId.feed(Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { id: 3 } })));
    assert.equal(noId.id, null);
  });
});

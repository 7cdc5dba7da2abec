// What a JSON-RPC message must be before it reaches the MCP server, and the error a peer gets
// when it is not (JSON-RPC 2.0 §5.1: -32700 not JSON, -32600 not a request, -32602 params that
// are not an object). The SDK's own transports drop such a message with no answer, which leaves
// the client waiting; here each one gets its error, with the request's id when it can be read.

import { ClientRequestSchema, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

interface MethodSchema {
  safeParse(value: unknown): { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } };
}

/** The params schema of every request an MCP client may send, by method (the SDK answers -32603 where they fail). */
const REQUESTS = new Map<string, MethodSchema>(
  (
    ClientRequestSchema as unknown as { options: Array<MethodSchema & { shape: { method: { value: string } } }> }
  ).options.map((o) => [o.shape.method.value, o]),
);

/** The largest single message Lore's MCP transports accept (stdio line, HTTP body). */
export const MAX_MCP_MESSAGE_BYTES = 4 * 1024 * 1024;

/**
 * The deepest JSON a message or request body may nest (Lore's own nest about 6), checked before
 * it is used: JSON.stringify recurses, so a relay or an error message that restates 100,000
 * brackets overflows the stack. The HTTP bodies (host/jsonBody.ts) are held to it too.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether brackets outside strings nest deeper than `max`: one pass, no parsing. */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

export type MessageId = string | number;

export type Verdict =
  | { kind: 'message'; message: JSONRPCMessage }
  /** Answer the peer with this error. */
  | { kind: 'reply'; reply: JSONRPCMessage }
  /** Nothing to answer (a broken notification or response: JSON-RPC never answers those). */
  | { kind: 'drop'; reason: string };

export function errorReply(id: MessageId | null, code: number, message: string): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isMessageId(value: unknown): value is MessageId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** Checks one message (a stdio line) and says whether to pass it on, answer it, or drop it. */
export function inspectMessage(text: string): Verdict {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {
      kind: 'reply',
      reply: errorReply(null, PARSE_ERROR, 'Parse error: the message is not JSON (send one JSON-RPC object per line)'),
    };
  }
  if (Array.isArray(value))
    return {
      kind: 'reply',
      reply: errorReply(
        null,
        INVALID_REQUEST,
        'Invalid Request: MCP takes no batches; send one JSON-RPC object per line',
      ),
    };
  if (!isObject(value))
    return {
      kind: 'reply',
      reply: errorReply(null, INVALID_REQUEST, 'Invalid Request: a JSON-RPC message is an object'),
    };
  const hasId = 'id' in value;
  if (hasId && !isMessageId(value.id))
    return {
      kind: 'reply',
      reply: errorReply(null, INVALID_REQUEST, 'Invalid Request: "id" must be a string or a number'),
    };
  const id = hasId ? (value.id as MessageId) : null;
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    if (!('method' in value) || !hasId)
      return { kind: 'drop', reason: `a message nested deeper than ${MAX_JSON_DEPTH}` };
    return {
      kind: 'reply',
      reply: errorReply(
        id,
        INVALID_REQUEST,
        `Invalid Request: the message nests JSON deeper than ${MAX_JSON_DEPTH} levels`,
      ),
    };
  }
  const invalid = (why: string): Verdict => ({
    kind: 'reply',
    reply: errorReply(id, INVALID_REQUEST, `Invalid Request: ${why}`),
  });
  if (value.jsonrpc !== '2.0') return invalid('"jsonrpc" must be "2.0"');
  if ('method' in value) {
    if (typeof value.method !== 'string' || !value.method) return invalid('"method" must be a non-empty string');
    if ('params' in value && !isObject(value.params)) {
      if (!hasId) return { kind: 'drop', reason: `notification ${value.method} with params that are not an object` };
      return { kind: 'reply', reply: errorReply(id, INVALID_PARAMS, 'Invalid params: "params" must be an object') };
    }
    const checked = hasId
      ? REQUESTS.get(value.method)?.safeParse({ method: value.method, params: value.params })
      : undefined;
    if (checked && !checked.success) {
      const issues = (checked.error?.issues ?? [])
        .slice(0, 3)
        .map((i) => `${i.path.map(String).join('.') || 'params'}: ${i.message}`);
      return {
        kind: 'reply',
        reply: errorReply(id, INVALID_PARAMS, `Invalid params for ${value.method}: ${issues.join('; ')}`),
      };
    }
  } else if ('result' in value || 'error' in value) {
    const parsed = JSONRPCMessageSchema.safeParse(value);
    return parsed.success
      ? { kind: 'message', message: parsed.data }
      : { kind: 'drop', reason: 'a malformed response' };
  } else {
    return invalid('neither a request (with "method") nor a response (with "result" or "error")');
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  return parsed.success ? { kind: 'message', message: parsed.data } : invalid('not a JSON-RPC 2.0 message');
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MAX_SCALAR_BYTES = 256;

/**
 * The top-level "id" of a JSON object streamed through in pieces and never kept whole (a message
 * over the size limit), so its over-limit error can name the request it answers. Bytes are
 * scanned, not characters: no UTF-8 continuation byte equals a quote, backslash or bracket.
 */
export class TopLevelIdScanner {
  private depth = 0;
  private started = false;
  private isObject = false;
  private inString = false;
  private escaped = false;
  /** A depth-1 string or scalar being read (up to MAX_SCALAR_BYTES), else null. */
  private token: number[] | null = null;
  private tokenTooLong = false;
  private scalar = false;
  private expectKey = true;
  private key: string | undefined;
  id: MessageId | null = null;

  feed(chunk: Buffer): void {
    for (const byte of chunk) this.step(byte);
  }

  private step(b: number): void {
    if (this.inString) {
      this.keep(b);
      if (this.escaped) this.escaped = false;
      else if (b === BACKSLASH) this.escaped = true;
      else if (b === QUOTE) {
        this.inString = false;
        this.endToken();
      }
      return;
    }
    if (this.scalar) {
      if (/[0-9eE.+\-a-z]/.test(String.fromCharCode(b))) return this.keep(b);
      this.scalar = false;
      this.endToken();
    }
    const c = String.fromCharCode(b);
    if (!this.started) {
      if (/\s/.test(c)) return;
      this.started = true;
      this.isObject = c === '{';
    }
    if (c === '"') {
      this.inString = true;
      this.startToken(b);
    } else if (c === '{' || c === '[') {
      this.depth++;
      if (this.depth === 1) this.expectKey = true;
    } else if (c === '}' || c === ']') {
      this.depth--;
    } else if (this.depth === 1 && c === ':') {
      this.expectKey = false;
    } else if (this.depth === 1 && c === ',') {
      this.expectKey = true;
    } else if (/[0-9\-tfn]/.test(c)) {
      this.scalar = true;
      this.startToken(b);
    }
  }

  private startToken(b: number): void {
    this.token = this.isObject && this.depth === 1 ? [b] : null;
    this.tokenTooLong = false;
  }

  private keep(b: number): void {
    if (!this.token) return;
    if (this.token.length >= MAX_SCALAR_BYTES) this.tokenTooLong = true;
    else this.token.push(b);
  }

  private endToken(): void {
    const token = this.token;
    this.token = null;
    if (!token || this.tokenTooLong) {
      if (this.expectKey) this.key = undefined;
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(Buffer.from(token).toString('utf8'));
    } catch {
      return;
    }
    if (this.expectKey) this.key = typeof value === 'string' ? value : undefined;
    else if (this.key === 'id' && isMessageId(value)) this.id = value;
  }
}

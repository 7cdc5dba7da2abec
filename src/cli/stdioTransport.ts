// `lore mcp`'s stdio transport: newline-delimited JSON-RPC on stdin/stdout, where every message
// that cannot be served is answered rather than dropped (the SDK's transport closes on a message
// over its limit, so the agent saw `lore mcp` exit 0, and ignores malformed ones). A line over
// MAX_MCP_MESSAGE_BYTES is not kept: it is read through to its end, its id picked out on the
// way, and answered with -32600. Malformed JSON-RPC gets -32700/-32600/-32602 (jsonRpc.ts).

import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { INVALID_REQUEST, MAX_MCP_MESSAGE_BYTES, TopLevelIdScanner, errorReply, inspectMessage } from '../mcp/jsonRpc';

const NEWLINE = 0x0a;

export class StdioJsonRpcTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private parts: Buffer[] = [];
  private size = 0;
  /** Set while reading through a line that is over the limit. */
  private oversize: TopLevelIdScanner | undefined;
  private closed = false;

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
    private readonly maxBytes = MAX_MCP_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    this.input.once('end', this.onEnd);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(JSON.stringify(message) + '\n')) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    this.input.off('end', this.onEnd);
    this.parts = [];
    this.onclose?.();
  }

  private readonly onInputError = (error: Error) => this.onerror?.(error);
  private readonly onEnd = () => void this.close();

  private readonly onData = (chunk: Buffer | string) => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (;;) {
      const end = data.indexOf(NEWLINE);
      this.take(end < 0 ? data : data.subarray(0, end));
      if (end < 0) return;
      this.endOfLine();
      data = data.subarray(end + 1);
    }
  };

  private take(piece: Buffer): void {
    if (!piece.length) return;
    if (this.oversize) return this.oversize.feed(piece);
    this.size += piece.length;
    if (this.size <= this.maxBytes) {
      this.parts.push(piece);
      return;
    }
    this.oversize = new TopLevelIdScanner();
    for (const part of this.parts) this.oversize.feed(part);
    this.oversize.feed(piece);
    this.parts = [];
  }

  private endOfLine(): void {
    const oversize = this.oversize;
    const line = oversize ? '' : Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    this.oversize = undefined;
    if (oversize) {
      const limit = `${this.maxBytes / 1024 / 1024} MiB`;
      void this.send(
        errorReply(
          oversize.id,
          INVALID_REQUEST,
          `Invalid Request: the message is over ${limit}, the most lore mcp ` +
            `reads; send less (a smaller body or fewer items)`,
        ),
      );
      return;
    }
    if (!line.trim()) return;
    const verdict = inspectMessage(line);
    if (verdict.kind === 'message') this.onmessage?.(verdict.message);
    else if (verdict.kind === 'reply') void this.send(verdict.reply);
    else this.onerror?.(new Error(`ignored ${verdict.reason}`));
  }
}

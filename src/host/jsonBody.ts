// A JSON request body for the owner's HTTP server, read within bounds: one whose Content-Length
// is over the limit is refused before a byte of it is read; one sent without a length (chunked)
// is cut off at the limit, never buffered whole; and its text must be JSON nested no deeper than
// MAX_JSON_DEPTH, checked before it is parsed (the engine's messages and the replies stringify
// what they are given, and JSON.stringify recurses: 100,000 brackets overflowed the stack).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoreError, type ErrorCode } from '../engine';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../mcp/jsonRpc';

/** A request refused for its body; `status` is the HTTP answer (413 too large, 400 otherwise). */
export class RefusedBody extends LoreError {
  constructor(
    readonly status: number,
    code: ErrorCode,
    message: string,
    hint?: string,
  ) {
    super(code, message, hint);
  }
}

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

/** The body as JSON, `undefined` when there is none; throws RefusedBody. `what` names the endpoint. */
export async function readJsonBody(req: IncomingMessage, limit: number, what: string): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limit) {
    throw new RefusedBody(
      413,
      'LIMIT_EXCEEDED',
      `the request body is ${declared} bytes; ${what} takes at most ${mib(limit)}`,
      'send less in one request',
    );
  }
  const { chunks, size } = await readUpTo(req, limit, what);
  if (!size) return undefined;
  const text = Buffer.concat(chunks).toString('utf8');
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new RefusedBody(
      400,
      'INVALID_INPUT',
      `the request body nests JSON deeper than ${MAX_JSON_DEPTH} levels`,
      'no Lore request nests that deep',
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new RefusedBody(400, 'INVALID_INPUT', `the request body is not JSON (${(error as Error).message})`);
  }
}

/** The body's bytes, up to `limit`; past it, reading stops (the stream is paused, not destroyed). */
function readUpTo(req: IncomingMessage, limit: number, what: string): Promise<{ chunks: Buffer[]; size: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      req.pause();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      stop();
      chunks.length = 0;
      reject(new RefusedBody(413, 'LIMIT_EXCEEDED', `the request body is over ${mib(limit)}, ${what}'s limit`));
    };
    const onEnd = () => {
      req.off('data', onData).off('error', onError).off('close', onClose);
      resolve({ chunks, size });
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    // A client that hangs up mid-body: nobody is left to answer.
    const onClose = () => onError(new LoreError('CANCELLED', 'the client hung up before sending the whole body'));
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/** How long, at most, the rest of a refused body is read and dropped before its connection is closed. */
const LINGER_MS = 10_000;

/**
 * After a refusal is answered while the body is still arriving, the connection is half-closed: the
 * answer is followed by the end of what the owner sends, so the client reads the whole answer before
 * it sees the end, and what the client still sends is read and dropped until it closes (or for at
 * most LINGER_MS). Closing at once, with its bytes unread, resets the connection, and the client's
 * system may discard the answer before the client reads it: a loaded client missed it within 2 s.
 */
export function closeAfterRefusal(req: IncomingMessage, res: ServerResponse): void {
  res.once('finish', () => {
    if (req.complete) return;
    req.resume();
    req.socket.end();
    setTimeout(() => req.socket.destroy(), LINGER_MS).unref();
  });
}

// The client side of the owner's event stream: events are read from real Server-Sent Events over a
// loopback socket, and a stream the owner drops (it restarted) is opened again after a pause that
// doubles with each failure in a row, until the caller says the owner is gone. Waits on the
// stream's own callbacks, never on a timer.

import { strict as assert } from 'node:assert';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OwnerEventStream } from '../../../src/host/ownerEventStream';
import type { OwnerEvent } from '../../../src/host/ownerEvents';

interface FakeOwner {
  server: Server;
  url: string;
  /** The open /events answers, newest last. */
  streams: ServerResponse[];
  /** The query and token each /events request carried. */
  asked: { query: string; auth: string | undefined }[];
  /** Whether /events refuses (503) instead of streaming. */
  refusing: boolean;
}

async function fakeOwner(port = 0): Promise<FakeOwner> {
  const owner = { streams: [], asked: [], refusing: false } as unknown as FakeOwner;
  owner.server = createServer((req, res) => {
    owner.asked.push({ query: (req.url ?? '').split('?')[1] ?? '', auth: req.headers.authorization });
    if (owner.refusing) return void res.writeHead(503).end();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(': subscribed\n\n');
    owner.streams.push(res);
  });
  await new Promise<void>((resolve) => owner.server.listen(port, '127.0.0.1', resolve));
  owner.url = `http://127.0.0.1:${(owner.server.address() as AddressInfo).port}`;
  return owner;
}

function send(res: ServerResponse, event: OwnerEvent): void {
  res.write(`data: ${JSON.stringify(event)}\n\n`);
}

/** A queue of what the stream reported, awaited one at a time. */
function recorder() {
  const seen: string[] = [];
  const waiting: Array<() => void> = [];
  return {
    seen,
    push(what: string) {
      seen.push(what);
      waiting.splice(0).forEach((wake) => wake());
    },
    async until(what: string): Promise<void> {
      while (!seen.includes(what)) await new Promise<void>((wake) => waiting.push(wake));
      seen.splice(seen.indexOf(what), 1);
    },
  };
}

describe('the owner event stream client (host/ownerEventStream.ts)', () => {
  const closing: Array<() => void> = [];
  afterEach(() => closing.splice(0).forEach((close) => close()));

  it('delivers the events it asked for, with the owner’s token, and skips a line it cannot read', async () => {
    const owner = await fakeOwner();
    closing.push(() => owner.server.close());
    const log = recorder();
    const stream = new OwnerEventStream({
      url: owner.url,
      token: 'owner-token',
      events: ['data', 'drift'],
      onEvent: (e) => log.push(e.event === 'drift' ? `drift ${e.paths.join(',')}` : e.event),
      onSubscribed: (again) => log.push(again ? 'subscribed again' : 'subscribed'),
    });
    closing.push(() => stream.close());
    await stream.ready;
    await log.until('subscribed');
    assert.deepEqual(owner.asked, [{ query: 'events=data,drift', auth: 'Bearer owner-token' }]);
    owner.streams[0].write('data: {not json\n\n');
    send(owner.streams[0], { event: 'data' });
    send(owner.streams[0], { event: 'drift', paths: ['src/queue.ts'], findings: [], current: [] });
    await log.until('drift src/queue.ts');
    assert.deepEqual(log.seen, ['data']);
  });

  it('opens the stream again when the owner restarts, counting failures in a row, and says it was away', async () => {
    let owner = await fakeOwner();
    const port = Number(new URL(owner.url).port);
    const log = recorder();
    const downs: number[] = [];
    const stream = new OwnerEventStream({
      url: owner.url,
      token: 't',
      events: ['data'],
      onEvent: (e) => log.push(e.event),
      onSubscribed: (again) => log.push(again ? 'subscribed again' : 'subscribed'),
      onDown: (_why, failures) => {
        downs.push(failures);
        log.push(`down ${failures}`);
        return true;
      },
      retryFirstMs: 20,
      retryMaxMs: 200,
    });
    closing.push(() => stream.close());
    await log.until('subscribed');
    // The owner goes away: the stream drops, and reopening fails while nothing listens on the port.
    owner.streams[0].destroy();
    await new Promise<void>((resolve) => owner.server.close(() => resolve()));
    await log.until('down 1');
    await log.until('down 2');
    await log.until('down 3');
    // It comes back on the same address: the stream reopens and says events may have been missed.
    owner = await fakeOwner(port);
    closing.push(() => owner.server.close());
    await log.until('subscribed again');
    send(owner.streams[0], { event: 'data' });
    await log.until('data');
    assert.deepEqual(downs.slice(0, 3), [1, 2, 3], 'each failure in a row is counted (the pause doubles with it)');
    // A later drop starts counting again from one.
    owner.streams[0].destroy();
    await log.until('down 1');
  });

  it('stops retrying when the caller finds the owner gone', async () => {
    const owner = await fakeOwner();
    closing.push(() => owner.server.close());
    owner.refusing = true;
    const log = recorder();
    const stream = new OwnerEventStream({
      url: owner.url,
      token: 't',
      events: ['data'],
      onEvent: () => undefined,
      onDown: (why) => {
        log.push(why);
        return false;
      },
      retryFirstMs: 1,
    });
    await stream.ready;
    await log.until('the owner answered 503 to GET /events');
    // Had it retried, a second request would be on its way; a health round trip lets it arrive.
    await fetch(owner.url).then((r) => r.arrayBuffer());
    assert.equal(owner.asked.length, 2, 'one /events request, and this test’s own');
  });
});

import { request } from 'node:http';
import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { splitBody } from './fault.js';
import { startTestServer, type Fault, type TestServer, type Wait } from './index.js';
import { namesOf, rawGet, smallListing } from '../../server/fixtures.js';

let server: TestServer;
let listingUrl: string;
const ALL = ['Order', 'Fill', 'Heartbeat', 'Account'];

beforeEach(async () => {
  server = await startTestServer({ listing: smallListing() });
  listingUrl = `${server.url}/rest/proto`;
});

afterEach(async () => {
  await server.close();
});

/** The error code behind a failed fetch (undici wraps socket errors in `cause`). */
function causeCode(error: unknown): unknown {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return cause?.code;
}

describe('status faults', () => {
  it('answers N failures, then the listing', async () => {
    server.queueFaults(
      { kind: 'status', status: 503, retryAfter: 1 },
      { kind: 'status', status: 429, retryAfter: 'Wed, 21 Oct 2015 07:28:00 GMT' },
      { kind: 'status', status: 502, body: '<html>Bad gateway</html>', contentType: 'text/html' },
    );
    const seen: [number, string | null, string | null, string][] = [];
    for (let i = 0; i < 4; i++) {
      const response = await fetch(listingUrl);
      seen.push([
        response.status,
        response.headers.get('retry-after'),
        response.headers.get('content-type'),
        await response.text(),
      ]);
    }
    expect(seen.slice(0, 3)).toEqual([
      [503, '1', 'application/json', '{"error":"Service Unavailable"}'],
      [429, 'Wed, 21 Oct 2015 07:28:00 GMT', 'application/json', '{"error":"Too Many Requests"}'],
      [502, null, 'text/html', '<html>Bad gateway</html>'],
    ]);
    expect(seen[3]?.[0]).toBe(200);
    expect(namesOf(JSON.parse(seen[3]?.[3] ?? ''))).toEqual(ALL);
    expect(server.requests).toHaveLength(4);
  });

  it('guesses the body type and adds extra headers', async () => {
    server.queueFaults(
      { kind: 'status', status: 500, body: '{"error":"invalid apikey k"}' },
      { kind: 'status', status: 500, body: 'Internal error', headers: { 'X-Request-Id': 'abc' } },
    );
    const first = await fetch(listingUrl);
    expect([first.status, first.headers.get('content-type'), await first.text()]).toEqual([
      500,
      'application/json',
      '{"error":"invalid apikey k"}',
    ]);
    const second = await fetch(listingUrl);
    expect([second.headers.get('content-type'), second.headers.get('x-request-id')]).toEqual(['text/plain', 'abc']);
  });

  it('applies a persistent fault after the queue, until cleared', async () => {
    server.setPersistentFault({ kind: 'status', status: 504 });
    server.queueFaults({ kind: 'status', status: 429 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(listingUrl)).status);
    server.setPersistentFault(undefined);
    statuses.push((await fetch(listingUrl)).status);
    expect(statuses).toEqual([429, 504, 504, 200]);
  });

  it.each<[Fault, string]>([
    [{ kind: 'status', status: 42 }, 'Invalid status fault: status 42 is not an HTTP status.'],
    [{ kind: 'delay', ms: -1 }, 'Invalid delay fault: ms must be an integer >= 0, got -1.'],
    [
      { kind: 'slowBody', chunkDelayMs: 1, chunks: 0 },
      'Invalid slowBody fault: chunks must be an integer >= 1, got 0.',
    ],
    [
      { kind: 'redirect', location: '/x', status: 200 },
      'Invalid redirect fault: status 200 is not a 3xx redirect status.',
    ],
    [{ kind: 'gzip', cutAt: -1 }, 'Invalid gzip fault: cutAt must be an integer >= 0, got -1.'],
    [{ kind: 'gzipBomb', inflatedBytes: 0 }, 'Invalid gzipBomb fault: inflatedBytes must be an integer >= 1, got 0.'],
    [{ kind: 'undecodable', encoding: 'zip' } as unknown as Fault, 'Invalid undecodable fault: unknown encoding "zip".'],
    [{ kind: 'bytes', body: new Uint8Array(), status: 1 }, 'Invalid bytes fault: status 1 is not an HTTP status.'],
    [{ kind: 'nope' } as unknown as Fault, 'Invalid nope fault: unknown kind "nope".'],
  ])('rejects an invalid fault %j when queued', (fault, message) => {
    expect(() => server.queueFaults(fault)).toThrow(message);
    expect(() => server.setPersistentFault(fault)).toThrow(message);
  });
});

describe('content faults', () => {
  it('answers a 200 HTML login page by default', async () => {
    server.queueFaults({ kind: 'html' });
    const response = await fetch(listingUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const text = await response.text();
    expect(text.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(text).toContain('<form method="post" action="/sso/login">');
  });

  it('answers HTML with the given status and body', async () => {
    server.queueFaults({ kind: 'html', status: 503, body: '<h1>Maintenance</h1>' });
    const response = await fetch(listingUrl);
    expect([response.status, await response.text()]).toEqual([503, '<h1>Maintenance</h1>']);
  });

  it.each<[string, unknown, number]>([
    ['an object', { error: 'nope' }, 200],
    ['an array of non-objects', [1, 'two', null], 200],
    ['a string', 'just text', 500],
  ])('answers JSON of %s instead of the listing', async (_, body, status) => {
    server.queueFaults({ kind: 'json', body, status });
    const response = await fetch(listingUrl);
    expect([response.status, response.headers.get('content-type'), await response.json()]).toEqual([
      status,
      'application/json',
      body,
    ]);
  });

  it('redirects once (302 by default), then answers normally at the new location', async () => {
    server.queueFaults({ kind: 'redirect', location: '/rest/proto?msgType=Fill' });
    const manual = await fetch(listingUrl, { redirect: 'manual' });
    expect([manual.status, manual.headers.get('location')]).toEqual([302, '/rest/proto?msgType=Fill']);

    server.queueFaults({ kind: 'redirect', location: `${server.url}/rest/proto?msgType=Order`, status: 307 });
    const followed = await fetch(listingUrl);
    expect(namesOf(await followed.json())).toEqual(['Order']);
    expect(server.requests.map((r) => r.query['msgType'])).toEqual([undefined, undefined, 'Order']);
  });
});

describe('compression faults', () => {
  it.each<['gzip' | 'deflate' | 'br', (body: Buffer) => Buffer]>([
    ['gzip', gunzipSync],
    ['deflate', inflateSync],
    ['br', brotliDecompressSync],
  ])('compresses the normal answer with %s, whatever Accept-Encoding says', async (kind, decode) => {
    server.setOptions({ trailer: {} });
    const plain = await rawGet(listingUrl);
    server.queueFaults({ kind });
    const raw = await rawGet(listingUrl);
    expect(raw.headers['content-encoding']).toBe(kind);
    expect(raw.headers['content-length']).toBe(String(raw.body.length));
    expect(decode(raw.body).equals(plain.body)).toBe(true);
  });

  it('gives fetch a gzip body it decodes transparently', async () => {
    server.queueFaults({ kind: 'gzip' });
    const response = await fetch(listingUrl);
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(namesOf(await response.json())).toEqual(ALL);
  });

  it('cuts the compressed body at cutAt, with a Content-Length to match', async () => {
    server.queueFaults({ kind: 'gzip', cutAt: 30 });
    const raw = await rawGet(listingUrl);
    expect([raw.headers['content-encoding'], raw.headers['content-length'], raw.body.length]).toEqual(['gzip', '30', 30]);
    expect(() => gunzipSync(raw.body)).toThrow('unexpected end of file');
  });

  it('labels an uncompressed body as compressed (undecodable)', async () => {
    const plain = await rawGet(listingUrl);
    server.queueFaults({ kind: 'undecodable' }, { kind: 'undecodable', encoding: 'br' });
    const gzip = await rawGet(listingUrl);
    const br = await rawGet(listingUrl);
    expect([gzip.headers['content-encoding'], br.headers['content-encoding']]).toEqual(['gzip', 'br']);
    expect(gzip.body.equals(plain.body)).toBe(true);
    expect(() => gunzipSync(gzip.body)).toThrow('incorrect header check');
  });

  it('sends a gzip bomb: a body about a thousandth of what it inflates to', async () => {
    const inflatedBytes = 5 * 1024 ** 2 + 3;
    server.queueFaults({ kind: 'gzipBomb', inflatedBytes });
    const raw = await rawGet(listingUrl);
    expect(raw.headers['content-encoding']).toBe('gzip');
    expect(raw.body.length).toBeLessThan(inflatedBytes / 500);
    const inflated = gunzipSync(raw.body);
    expect(inflated.length).toBe(inflatedBytes);
    expect(inflated.equals(Buffer.concat([Buffer.from('['), Buffer.alloc(inflatedBytes - 1, ' ')]))).toBe(true);
  });

  it('compresses error answers too', async () => {
    server.setOptions({ apiKey: 'k' });
    server.queueFaults({ kind: 'gzip' });
    const raw = await rawGet(`${listingUrl}?apikey=secret-guess`);
    expect(raw.status).toBe(401);
    expect(gunzipSync(raw.body).toString()).toBe('{"error":"invalid apikey secret-guess"}');
  });
});

/**
 * The waits of `delay` and `slowBody`, held until the test releases them: a test sees what the
 * server waits for and in which order, and never waits for real time itself.
 */
function heldWaits() {
  const held: Array<{ ms: number; release: () => void }> = [];
  const asking: Array<(wait: { ms: number; release: () => void }) => void> = [];
  const wait: Wait = (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      const entry = { ms, release: resolve };
      const taker = asking.shift();
      if (taker) taker(entry);
      else held.push(entry);
    });
  /** The next wait the server begins (at once if one has begun and not been taken yet). */
  const next = (): Promise<{ ms: number; release: () => void }> => {
    const first = held.shift();
    return first ? Promise.resolve(first) : new Promise((resolve) => asking.push(resolve));
  };
  return { wait, next };
}

/** Replaces the test's server by one that waits through `wait`. */
async function restartWaitingThrough(wait: Wait): Promise<void> {
  await server.close();
  server = await startTestServer({ listing: smallListing(), wait });
  listingUrl = `${server.url}/rest/proto`;
}

describe('timing faults', () => {
  it('delays the headers by the fault\'s wait, then answers normally', async () => {
    const waits = heldWaits();
    await restartWaitingThrough(waits.wait);
    server.queueFaults({ kind: 'delay', ms: 150 });
    let answered = false;
    const pending = fetch(listingUrl).then((response) => ((answered = true), response));
    const held = await waits.next();
    expect(held.ms).toBe(150);
    // The server has sent nothing while it waits: no answer can have come.
    expect(answered).toBe(false);
    held.release();
    expect(namesOf(await (await pending).json())).toEqual(ALL);
  });

  it('sends the headers at once, then the body in paced chunks, one per wait', async () => {
    const waits = heldWaits();
    await restartWaitingThrough(waits.wait);
    server.queueFaults({ kind: 'slowBody', chunkDelayMs: 40, chunks: 3 });
    // The headers come while the first wait is still held.
    const response = await fetch(listingUrl);
    expect(response.status).toBe(200);
    let complete = false;
    const text = response.text().then((body) => ((complete = true), body));
    const asked: number[] = [];
    for (let chunk = 1; chunk <= 3; chunk++) {
      const held = await waits.next();
      asked.push(held.ms);
      // The last piece goes out only after the last wait.
      expect(complete).toBe(false);
      held.release();
    }
    expect(asked).toEqual([40, 40, 40]);
    expect(namesOf(JSON.parse(await text))).toEqual(ALL);
  });

  it('closes without waiting for a slow body in flight', async () => {
    const waits = heldWaits();
    await restartWaitingThrough(waits.wait);
    server.queueFaults({ kind: 'slowBody', chunkDelayMs: 3_600_000 });
    const response = await fetch(listingUrl);
    expect(response.status).toBe(200);
    const body = response.text();
    body.catch(() => undefined);
    await waits.next();
    // The hour-long wait is never released: close() itself must end it.
    await server.close();
    await expect(body).rejects.toThrow();
  });

  it('closes without waiting for a delayed answer', async () => {
    const waits = heldWaits();
    await restartWaitingThrough(waits.wait);
    server.queueFaults({ kind: 'delay', ms: 3_600_000 });
    const pending = fetch(listingUrl);
    pending.catch(() => undefined);
    expect((await waits.next()).ms).toBe(3_600_000);
    await server.close();
    await expect(pending).rejects.toThrow();
  });

  it('waits in real time by default, and close() cuts a real wait short', async () => {
    server.queueFaults({ kind: 'slowBody', chunkDelayMs: 3_600_000 });
    // The headers come before the first wait: once they are here, the server is waiting an hour.
    const response = await fetch(listingUrl);
    const body = response.text();
    body.catch(() => undefined);
    await server.close();
    await expect(body).rejects.toThrow();
  });
});

describe('hostile faults', () => {
  it('sends a body that never ends, as fast as the client reads, until the client goes', async () => {
    server.queueFaults({ kind: 'endless' });
    const { status, type, head, received } = await new Promise<{ status?: number; type?: string; head: string; received: number }>((resolve, reject) => {
      const req = request(listingUrl, { agent: false }, (res) => {
        let received = 0;
        let head = '';
        res.on('data', (chunk: Buffer) => {
          if (head.length < 20) head += chunk.toString();
          received += chunk.length;
          // Eight MiB is more than any answer of this listing: it goes on.
          if (received > 8 * 1024 ** 2) {
            req.destroy();
            resolve({ status: res.statusCode, type: res.headers['content-type'], head, received });
          }
        });
        res.on('end', () => reject(new Error(`the endless body ended after ${received} bytes`)));
      });
      req.on('error', reject);
      req.end();
    });
    expect([status, type]).toEqual([200, 'application/json']);
    expect(head.startsWith('[{"header":{"msgType":"MsgDesc"}')).toBe(true);
    expect(received).toBeGreaterThan(8 * 1024 ** 2);
    // The next request is answered normally.
    expect((await fetch(listingUrl)).status).toBe(200);
  });

  it('answers with exactly the given bytes', async () => {
    const body = Uint8Array.from([0x5b, 0x22, 0xc3, 0x28, 0x22, 0x5d]);
    server.queueFaults({ kind: 'bytes', body }, { kind: 'bytes', body, status: 500, contentType: 'text/plain' });
    const first = await rawGet(listingUrl);
    const second = await rawGet(listingUrl);
    expect([first.status, first.headers['content-type'], [...first.body]]).toEqual([200, 'application/json', [...body]]);
    expect([second.status, second.headers['content-type']]).toEqual([500, 'text/plain']);
  });

  it('answers as a TLS port would: a TLS alert record instead of HTTP', async () => {
    server.queueFaults({ kind: 'tls' });
    const { port } = new URL(server.url);
    const bytes = await new Promise<Buffer>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('GET /rest/proto HTTP/1.1\r\nHost: x\r\n\r\n'));
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks)));
    });
    expect([...bytes]).toEqual([0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x46]);
  });
});

describe('reset faults', () => {
  it('resets the connection before the headers', async () => {
    server.queueFaults({ kind: 'reset' });
    const error: unknown = await fetch(listingUrl).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(causeCode(error)).toBe('ECONNRESET');
    // One-shot: the next request is answered.
    expect((await fetch(listingUrl)).status).toBe(200);
  });

  it('cuts the body after N bytes', async () => {
    server.queueFaults({ kind: 'reset', afterBytes: 10 });
    const response = await fetch(listingUrl);
    expect(response.status).toBe(200);
    const error: unknown = await response.text().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(causeCode(error)).toBe('UND_ERR_SOCKET');

    server.queueFaults({ kind: 'reset', afterBytes: 10 });
    await expect(rawGet(listingUrl)).rejects.toThrow('aborted after 10 bytes');
  });
});

describe('splitBody', () => {
  it.each<[number, number, number[]]>([
    [10, 4, [3, 3, 3, 1]],
    [2, 4, [1, 1]],
    [0, 4, [0]],
  ])('splits %i bytes into at most %i pieces', (length, count, sizes) => {
    expect(splitBody(Buffer.alloc(length), count).map((b) => b.length)).toEqual(sizes);
  });
});

import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReferenceServer, type Fault, type ReferenceServer } from '../../src/server/index.js';
import { namesOf, rawGet, smallListing } from './fixtures.js';

let server: ReferenceServer;
let listingUrl: string;
const ALL = ['Order', 'Fill', 'Heartbeat', 'Account'];

beforeEach(async () => {
  server = await startReferenceServer({ listing: smallListing() });
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

  it('compresses error answers too', async () => {
    server.setOptions({ apiKey: 'k' });
    server.queueFaults({ kind: 'gzip' });
    const raw = await rawGet(`${listingUrl}?apikey=secret-guess`);
    expect(raw.status).toBe(401);
    expect(gunzipSync(raw.body).toString()).toBe('{"error":"invalid apikey secret-guess"}');
  });
});

describe('timing faults', () => {
  it('delays the headers, then answers normally', async () => {
    server.queueFaults({ kind: 'delay', ms: 150 });
    const started = performance.now();
    const response = await fetch(listingUrl);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(namesOf(await response.json())).toEqual(ALL);
  });

  it('sends the body in paced chunks', async () => {
    server.queueFaults({ kind: 'slowBody', chunkDelayMs: 40, chunks: 3 });
    const started = performance.now();
    const response = await fetch(listingUrl);
    const headersAfter = performance.now() - started;
    const reader = response.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
    // Headers come at once; the three 40 ms pauses fall between headers and the end of the body.
    expect(performance.now() - started - headersAfter).toBeGreaterThanOrEqual(90);
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    expect(namesOf(JSON.parse(Buffer.concat(chunks).toString()))).toEqual(ALL);
  });

  it('closes promptly with a slow body in flight', async () => {
    server.queueFaults({ kind: 'slowBody', chunkDelayMs: 10_000 });
    const response = await fetch(listingUrl);
    expect(response.status).toBe(200);
    const body = response.text();
    const started = performance.now();
    await server.close();
    expect(performance.now() - started).toBeLessThan(1000);
    await expect(body).rejects.toThrow();
  });

  it('closes promptly with a delayed answer pending', async () => {
    server.queueFaults({ kind: 'delay', ms: 10_000 });
    const pending = fetch(listingUrl);
    pending.catch(() => undefined);
    await expect.poll(() => server.requests.length).toBe(1);
    const started = performance.now();
    await server.close();
    expect(performance.now() - started).toBeLessThan(1000);
    await expect(pending).rejects.toThrow();
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

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fetchDescriptors, readListingInput, requestListing, type FetchOptions } from '../../src/fetch/index.js';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { removeDir, tempDir } from '../helpers/cli.js';
import { hashOf } from '../../src/util/hash.js';
import { exampleListing, smallListing, wireElement } from '../helpers/listing.js';
import { messageText } from '../../src/model/message.js';

const fast = { baseDelayMs: 5, maxDelayMs: 20 };
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ listing: smallListing(3) });
});
afterAll(() => server.close());
beforeEach(() => {
  server.setOptions({ listing: smallListing(3), trailer: false, headerKey: undefined, apiKey: undefined, secret: undefined });
  server.setPersistentFault(undefined);
  server.requests.length = 0;
});

function get(options: Partial<FetchOptions> = {}) {
  return fetchDescriptors({ baseUrl: server.url, backoff: fast, timeout: 5_000, ...options });
}

async function failure(options: Partial<FetchOptions> = {}): Promise<Error & { code?: string; hint?: string }> {
  try {
    await get(options);
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the fetch to fail');
}

describe('query parameters', () => {
  it('sends each set parameter as given and nothing unset', async () => {
    await get({
      query: { cmd: 'getmsgtypes', msgType: 'T0001', pkey: 'k1', limit: 50, view: 'v', where: 'mToken:ne:SystemData', order: 'name' },
      apiKey: 'key-123', secret: 'secret-456',
    });
    expect(server.requests[0]!.query).toEqual({
      cmd: 'getmsgtypes', msgType: 'T0001', pkey: 'k1', limit: '50', view: 'v', where: 'mToken:ne:SystemData', order: 'name', apikey: 'key-123', secret: 'secret-456',
    });
  });

  it('sends no parameters when none is set', async () => {
    await get();
    expect(server.requests[0]!.query).toEqual({});
    expect(server.requests[0]!.path).toBe('/rest/proto');
  });

  it.each([0, 10_001, 2.5, -1])('refuses limit %s before any request', async (limit) => {
    const error = await failure({ query: { limit } });
    expect(error.message).toContain('limit must be an integer from 1 to 10000');
    expect(server.requests).toHaveLength(0);
  });

  it('records the source without credentials', async () => {
    const result = await get({ query: { cmd: 'getmsgtypes' }, apiKey: 'key-123' });
    expect(result.source).toEqual({ baseUrl: server.url, query: { cmd: 'getmsgtypes' } });
  });
});

describe('response shapes', () => {
  it('reads the example listing, sorted and normalised, unknown fields kept', async () => {
    server.setListing(exampleListing());
    const { descriptors } = await get();
    expect(descriptors).toHaveLength(264);
    const first = descriptors[0]!;
    expect(first).toMatchObject({ name: 'AccountRiskRecordV5', mNum: 1000, actions: ['select', 'insert', 'update', 'replace', 'delete'], hasTKey: true, hasEKey: false, hasCF: true });
    expect(first.staticFilterFields).toEqual(['accnt', 'currency', 'tradeDate', 'riskSession', 'clientFirm']);
    expect(first.extra).toEqual({ desc: 'AccountRiskRecordV5 record with 136 top-level fields.', pkey: {}, topic: 'clientrisk' });
  });

  it.each(['msgType', 'mTyp'] as const)('accepts the %s header key', async (headerKey) => {
    server.setOptions({ headerKey, trailer: {} });
    const { descriptors, trailer } = await get();
    expect(descriptors.map((d) => d.name)).toEqual(['T0000', 'T0001', 'T0002']);
    expect(trailer?.result).toBe('Ok');
  });

  it('does not take the trailer for a descriptor', async () => {
    server.setOptions({ trailer: { numMessagesSent: 3 } });
    const { descriptors } = await get();
    expect(descriptors).toHaveLength(3);
  });

  it('fails on a non-Ok trailer with its detail', async () => {
    server.setOptions({ trailer: { result: 'Error', detail: 'query timed out on node 3' } });
    const error = await failure();
    expect(error.message).toContain('QueryResult "Error": query timed out on node 3');
    expect((error as { code?: string }).code).toBe('RESPONSE');
  });

  it('fails on a listing that fills the limit, unless allowed', async () => {
    server.setOptions({ trailer: {} });
    const error = await failure({ query: { limit: 2 } });
    expect(error.message).toContain('as many as the limit 2, so it may be cut short');
    const allowed = await get({ query: { limit: 2 }, allowTruncated: true });
    expect(allowed.descriptors).toHaveLength(2);
  });

  it('keeps an unknown action letter and warns', async () => {
    server.setListing([wireElement({ actions: 'SXD', hasTKey: 'YES', hasEKey: true, hasOKey: 'no', hasCF: 'nO' })]);
    const { descriptors, warnings } = await get();
    expect(descriptors[0]).toMatchObject({ actions: ['select', 'delete', 'X'], hasTKey: true, hasEKey: true, hasOKey: false, hasCF: false });
    expect(warnings.join('\n')).toContain('unknown action letter "X"');
  });

  it('names index, name and field of every invalid element at once', async () => {
    server.setListing([wireElement(), wireElement({ name: 'Bad', mNum: 'abc' }), wireElement({ name: 'Worse', mNum: 3, hasCF: 'Maybe' })]);
    const error = await failure();
    expect(error.message).toContain('element 1 ("Bad"), field message.mNum: expected a non-negative integer, got "abc"');
    expect(error.message).toContain('element 2 ("Worse"), field message.hasCF: expected "Yes" or "No" (any case), a boolean, YESNO_YES or YESNO_NO, or 1 (yes) or 2 (no), got "Maybe"');
    expect((error as { code?: string }).code).toBe('VALIDATION');
  });

  it('names both elements of a duplicate name or number', async () => {
    server.setListing([wireElement({ name: 'A', mNum: 1 }), wireElement({ name: 'A', mNum: 2 }), wireElement({ name: 'C', mNum: 1 })]);
    const error = await failure();
    expect(error.message).toContain('name "A" appears at elements 0 and 1');
    expect(error.message).toContain('mNum 1 is used by element 0 ("A") and element 2 ("C")');
  });

  it('says so when a 200 answer is an HTML page', async () => {
    server.queueFaults({ kind: 'html' });
    const error = await failure();
    expect(error.message).toMatch(/expected a JSON array, got text\/html: <!?(doctype|html)/i);
  });

  it.each([
    [{ kind: 'json', body: { error: 'nope' } }, 'got a JSON object'],
    [{ kind: 'status', status: 200, body: 'not json at all', contentType: 'text/plain' }, 'is not JSON'],
  ] as const)('rejects a body that is not an array: %j', async (fault, expected) => {
    server.queueFaults(fault);
    const error = await failure();
    expect(error.message).toContain(expected);
  });

  it.each(['gzip', 'deflate', 'br'] as const)('decodes a %s body', async (kind) => {
    server.queueFaults({ kind });
    const { descriptors } = await get();
    expect(descriptors).toHaveLength(3);
  });

  it('follows a redirect', async () => {
    server.queueFaults({ kind: 'redirect', location: '/rest/proto?moved=1' });
    const { descriptors } = await get();
    expect(descriptors).toHaveLength(3);
    expect(server.requests.map((r) => r.query['moved'])).toEqual([undefined, '1']);
  });
});

describe('status errors and retries', () => {
  it('retries 503, 503, 429 (Retry-After: 1) and then succeeds, waiting before each try what the policy says', async () => {
    server.queueFaults(
      { kind: 'status', status: 503 },
      { kind: 'status', status: 503 },
      { kind: 'status', status: 429, retryAfter: 1 },
    );
    const events: string[] = [];
    // The waits go through the injected timers: each one is recorded with the number of requests
    // the server had seen when it began, so the order (wait, then the next try) is asserted too.
    const waits: Array<[ms: number, requestsSeen: number]> = [];
    const timers = { now: () => 0, sleep: async (ms: number) => void waits.push([ms, server.requests.length]) };
    const { descriptors } = await get({ timers, backoff: { baseDelayMs: 100, maxDelayMs: 150 }, onEvent: (e) => events.push(e.type === 'retry' ? `retry ${e.delayMs}` : e.type) });
    expect(descriptors).toHaveLength(3);
    expect(server.requests).toHaveLength(4);
    expect(events.filter((e) => e.startsWith('retry'))).toHaveLength(3);
    expect(waits.map(([, seen]) => seen)).toEqual([1, 2, 3]);
    // Exponential backoff with up to 50 % jitter: 50..100 ms, then 75..150 ms (capped); then Retry-After.
    expect(waits[0]![0]).toBeGreaterThanOrEqual(50);
    expect(waits[0]![0]).toBeLessThanOrEqual(100);
    expect(waits[1]![0]).toBeGreaterThanOrEqual(75);
    expect(waits[1]![0]).toBeLessThanOrEqual(150);
    expect(waits[2]![0]).toBe(1000);
  });

  it('reads an HTTP-date Retry-After against the clock it is given', async () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    server.queueFaults({ kind: 'status', status: 429, retryAfter: 'Wed, 21 Oct 2015 07:28:07 GMT' });
    const waits: number[] = [];
    const { descriptors } = await get({ timers: { now: () => now, sleep: async (ms) => void waits.push(ms) } });
    expect(descriptors).toHaveLength(3);
    expect(waits).toEqual([7000]);
  });

  it('says how many tries and the last cause when retries run out', async () => {
    server.setPersistentFault({ kind: 'status', status: 502, body: '{"error":"bad gateway"}' });
    const error = await failure({ retries: 2 });
    expect(error.message).toContain('gave up after 3 tries');
    expect(error.message).toContain('HTTP 502');
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 400 and shows the body', async () => {
    server.queueFaults({ kind: 'status', status: 400, body: '{"error":"bad where clause"}' });
    const error = await failure();
    expect(error.message).toContain('answered HTTP 400: {"error":"bad where clause"}');
    expect(server.requests).toHaveLength(1);
  });

  it('explains a wrong key and never shows it, even when the server echoes it', async () => {
    server.setOptions({ apiKey: 'right-key-123' });
    const error = await failure({ apiKey: 'wrong-key-456', secret: 'top-secret-789' });
    expect(error.message).toContain('HTTP 401');
    expect(error.hint).toContain('SCHEMA_SYNC_API_KEY');
    const everything = `${error.message}\n${error.hint}\n${error.stack}`;
    expect(everything).not.toContain('wrong-key-456');
    expect(everything).not.toContain('top-secret-789');
    expect(everything).toContain('***');
  });

  it('says "no API key was given" for a 401 to a request without credentials', async () => {
    server.setOptions({ apiKey: 'right-key-123' });
    const error = await failure();
    expect(error.message).toContain('HTTP 401');
    expect(error.hint).toBe('The service wants credentials, and no API key was given: set SCHEMA_SYNC_API_KEY (and SCHEMA_SYNC_SECRET if it needs one), or pass --api-key.');
  });

  it('retries a reset connection, then succeeds', async () => {
    server.queueFaults({ kind: 'reset' }, { kind: 'reset', afterBytes: 20 });
    const { descriptors } = await get();
    expect(descriptors).toHaveLength(3);
  });

  it('times out a slow body and says so', async () => {
    server.setPersistentFault({ kind: 'slowBody', chunkDelayMs: 300, chunks: 4 });
    const error = await failure({ timeout: 400, retries: 1 });
    expect(error.message).toContain('after 2 tries: timed out after 400 ms (--timeout)');
  });

  it('reports connection refused', async () => {
    const closed = await startTestServer({ listing: [] });
    const url = closed.url;
    await closed.close();
    const error = await failure({ baseUrl: url, retries: 1 });
    expect(error.message).toContain('connection refused');
    expect((error as { code?: string }).code).toBe('NETWORK');
  });
});

describe('the answer before it is parsed', () => {
  it('requestListing keeps what the parse depends on, reads nothing before asked, and parses once', async () => {
    server.setOptions({ trailer: {} });
    const response = await requestListing({ baseUrl: server.url, query: { cmd: 'getmsgtypes', limit: 50 }, backoff: fast });
    expect(response.source).toEqual({ baseUrl: server.url, query: { cmd: 'getmsgtypes', limit: '50' } });
    expect(response.identity).toMatchObject({ contentType: 'application/json', limit: 50, allowTruncated: false });
    // The body, by its hash: the bytes the server sends for this query (three types and the trailer).
    const served = Buffer.from(await (await fetch(`${server.url}/rest/proto?cmd=getmsgtypes&limit=50`)).arrayBuffer());
    expect(JSON.parse(served.toString('utf8'))).toHaveLength(4);
    expect(response.identity.bodyHash).toBe(hashOf(served));
    expect(response.echoesSecrets()).toBe(false);
    const parsed = response.parse();
    expect(parsed.descriptors.map((d) => d.name)).toEqual(['T0000', 'T0001', 'T0002']);
    expect(response.parse()).toBe(parsed);
  });

  it('echoesSecrets() says when the listing holds a secret; parse() scrubs it and warns', async () => {
    server.setListing([...smallListing(2), wireElement({ name: 'Echo', mNum: 77, desc: 'asked by key-123456' })]);
    const response = await requestListing({ baseUrl: server.url, apiKey: 'key-123456', backoff: fast });
    expect(response.echoesSecrets()).toBe(true);
    const { descriptors, warnings } = response.parse();
    expect(descriptors.find((d) => d.name === 'Echo')?.extra).toEqual({ desc: 'asked by ***' });
    expect(messageText(warnings[0]!)).toContain('the service echoed the API key or secret in element 2 of the listing');
  });

  it('readListingInput gives a file the same shape: its bytes, no content type, no secrets', async () => {
    const dir = await tempDir();
    try {
      const file = join(dir, 'listing.json');
      const text = JSON.stringify(smallListing(3));
      await writeFile(file, text);
      const response = await readListingInput({ input: file, query: { limit: 10 } });
      expect(response.source).toEqual({ query: { limit: '10' } });
      expect(response.identity).toEqual({ bodyHash: hashOf(text), contentType: '', limit: 10, allowTruncated: false });
      expect(response.echoesSecrets()).toBe(false);
      expect(response.parse().descriptors).toHaveLength(3);
    } finally {
      await removeDir(dir);
    }
  });
});

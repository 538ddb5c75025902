import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/model/errors.js';
import { loadListingFile } from '../../src/server/index.js';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { namesOf, rawGet, smallListing } from './fixtures.js';

let server: TestServer;

beforeEach(async () => {
  server = await startTestServer({ listing: smallListing() });
});

afterEach(async () => {
  await server.close();
});

/** GETs /rest/proto with the given query and returns status and parsed JSON body. */
async function getListing(
  query: Record<string, string> = {},
): Promise<{ status: number; body: unknown; type: string | null }> {
  const response = await fetch(`${server.url}/rest/proto?${new URLSearchParams(query).toString()}`);
  return { status: response.status, body: await response.json(), type: response.headers.get('content-type') };
}

describe('serving the listing', () => {
  it('serves the example listing exactly as given, as application/json on loopback', async () => {
    const listing = await loadListingFile('examples/descriptors.json');
    server.setListing(listing);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const { status, body, type } = await getListing();
    expect(status).toBe(200);
    expect(type).toBe('application/json');
    expect(body).toEqual(listing);
  });

  it('answers identical requests with identical bytes and no Date header', async () => {
    const first = await rawGet(`${server.url}/rest/proto?cmd=getmsgtypes`);
    const second = await rawGet(`${server.url}/rest/proto?cmd=getmsgtypes`);
    expect(first.body.equals(second.body)).toBe(true);
    expect(first.headers['date']).toBeUndefined();
    expect(first.headers['content-length']).toBe(String(first.body.length));
  });

  it('records every request with its path, decoded query and headers', async () => {
    await fetch(`${server.url}/rest/proto?cmd=getmsgtypes&where=mToken%3Ane%3ASystemData&apikey=k%20y`, {
      headers: { 'x-test': 'yes' },
    });
    await fetch(`${server.url}/elsewhere`);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]).toMatchObject({
      method: 'GET',
      path: '/rest/proto',
      query: { cmd: 'getmsgtypes', where: 'mToken:ne:SystemData', apikey: 'k y' },
      headers: { 'x-test': 'yes' },
    });
    expect(server.requests[1]?.path).toBe('/elsewhere');
  });

  it.each([
    ['another path', '/rest/other', 'GET'],
    ['a trailing slash', '/rest/proto/', 'GET'],
    ['a double slash', '//rest/proto', 'GET'],
    ['another method', '/rest/proto', 'POST'],
  ])('answers 404 JSON for %s', async (_, path, method) => {
    const response = await fetch(`${server.url}${path}`, { method });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ error: 'not found' });
  });

  it('serves a new listing after setListing, and malformed elements as they are', async () => {
    server.setListing([{ header: { msgType: 'MsgDesc' }, message: 'oops' }, 42, null]);
    expect((await getListing()).body).toEqual([{ header: { msgType: 'MsgDesc' }, message: 'oops' }, 42, null]);
  });
});

describe('filters', () => {
  it.each<[string, Record<string, string>, string[]]>([
    ['msgType by name', { msgType: 'Fill' }, ['Fill']],
    ['msgType by mNum', { msgType: '1014' }, ['Heartbeat']],
    ['msgType without a match', { msgType: 'Nope' }, []],
    ['msgType numeric without a match', { msgType: '1' }, []],
    ['where ne', { where: 'mToken:ne:SystemData' }, ['Order', 'Fill', 'Account']],
    ['where eq', { where: 'mToken:eq:Trading' }, ['Order', 'Fill']],
    ['where on a number', { where: 'mNum:eq:1021' }, ['Account']],
    ['where clauses ANDed', { where: 'mToken:eq:Trading,name:ne:Order' }, ['Fill']],
    ['where on a missing field', { where: 'nothing:ne:x' }, ['Order', 'Fill', 'Heartbeat', 'Account']],
    ['where value with a colon', { where: 'desc:eq:a:b' }, []],
    ['limit', { limit: '2' }, ['Order', 'Fill']],
    ['limit at the maximum', { limit: '10000' }, ['Order', 'Fill', 'Heartbeat', 'Account']],
    ['limit after where', { where: 'mToken:ne:Trading', limit: '1' }, ['Heartbeat']],
    [
      'ignored parameters',
      { cmd: 'getmsgtypes', pkey: 'x', view: 'full', order: 'name' },
      ['Order', 'Fill', 'Heartbeat', 'Account'],
    ],
  ])('%s', async (_, query, want) => {
    const { status, body } = await getListing(query);
    expect(status).toBe(200);
    expect(namesOf(body)).toEqual(want);
  });

  it.each<[string, string]>([
    ['0', 'invalid limit "0": must be an integer 1..10000'],
    ['10001', 'invalid limit "10001": must be an integer 1..10000'],
    ['-1', 'invalid limit "-1": must be an integer 1..10000'],
    ['1.5', 'invalid limit "1.5": must be an integer 1..10000'],
    ['1e3', 'invalid limit "1e3": must be an integer 1..10000'],
    ['abc', 'invalid limit "abc": must be an integer 1..10000'],
    ['', 'invalid limit "": must be an integer 1..10000'],
  ])('rejects limit=%j with 400', async (limit, error) => {
    const { status, body, type } = await getListing({ limit });
    expect(status).toBe(400);
    expect(type).toBe('application/json');
    expect(body).toEqual({ error });
  });

  it.each<[string, string]>([
    ['mToken', 'invalid where clause "mToken": expected field:op:value'],
    ['mToken:ne', 'invalid where clause "mToken:ne": expected field:op:value'],
    ['mToken:like:Sys%', 'invalid where clause "mToken:like:Sys%": unknown operator "like" (use eq or ne)'],
    [':eq:x', 'invalid where clause ":eq:x": bad field name ""'],
    ['mToken = SystemData', 'invalid where clause "mToken = SystemData": expected field:op:value'],
    ['', 'invalid where clause "": expected field:op:value'],
    ['name:eq:A,', 'invalid where clause "": expected field:op:value'],
  ])('rejects where=%j with 400', async (where, error) => {
    const { status, body } = await getListing({ where });
    expect(status).toBe(400);
    expect(body).toEqual({ error });
  });
});

describe('auth', () => {
  it.each<[string, Record<string, string>, Record<string, string>, number, unknown]>([
    ['the right key', { apiKey: 'key-1' }, { apikey: 'key-1' }, 200, undefined],
    ['no key', { apiKey: 'key-1' }, {}, 401, { error: 'missing apikey' }],
    ['a wrong key, echoed', { apiKey: 'key-1' }, { apikey: 'wrong-key' }, 401, { error: 'invalid apikey wrong-key' }],
    ['a wrong secret, echoed', { secret: 's-1' }, { secret: 's-2' }, 401, { error: 'invalid secret s-2' }],
    ['no secret', { apiKey: 'key-1', secret: 's-1' }, { apikey: 'key-1' }, 401, { error: 'missing secret' }],
    ['key and secret', { apiKey: 'key-1', secret: 's-1' }, { apikey: 'key-1', secret: 's-1' }, 200, undefined],
    ['any key when none is required', {}, { apikey: 'whatever' }, 200, undefined],
  ])('with %s', async (_, configured, query, status, error) => {
    server.setOptions(configured);
    const answer = await getListing(query);
    expect(answer.status).toBe(status);
    expect(answer.type).toBe('application/json');
    if (error !== undefined) expect(answer.body).toEqual(error);
  });

  it('checks auth before validating the query', async () => {
    server.setOptions({ apiKey: 'key-1' });
    expect((await getListing({ apikey: 'bad', limit: '0' })).status).toBe(401);
  });

  it('does not echo credentials when told not to', async () => {
    server.setOptions({ apiKey: 'key-1', echoSecretsInErrors: false });
    expect((await getListing({ apikey: 'wrong-key' })).body).toEqual({ error: 'invalid apikey' });
  });

  it('drops the requirement when setOptions resets apiKey to undefined', async () => {
    server.setOptions({ apiKey: 'key-1' });
    server.setOptions({ apiKey: undefined });
    expect((await getListing()).status).toBe(200);
  });
});

describe('header key and trailer', () => {
  it('renames msgType to mTyp without touching the listing it was given', async () => {
    const listing = smallListing();
    server.setListing(listing);
    server.setOptions({ headerKey: 'mTyp' });
    const { body } = await getListing();
    expect((body as { header: unknown }[]).map((e) => e.header)).toEqual(Array(4).fill({ mTyp: 'MsgDesc' }));
    expect(listing[0]?.['header']).toEqual({ msgType: 'MsgDesc' });
  });

  it('renames mTyp to msgType, keeping other header keys and their order', async () => {
    server.setListing([{ header: { a: 1, mTyp: 'MsgDesc', z: 2 }, message: { name: 'X' } }]);
    server.setOptions({ headerKey: 'msgType' });
    const raw = await rawGet(`${server.url}/rest/proto`);
    expect(raw.body.toString()).toBe('[{"header":{"a":1,"msgType":"MsgDesc","z":2},"message":{"name":"X"}}]');
  });

  it('appends a QueryResult trailer counting the descriptors sent', async () => {
    server.setOptions({ trailer: {} });
    const { body } = await getListing({ limit: '3' });
    const elements = body as unknown[];
    expect(elements).toHaveLength(4);
    expect(elements[3]).toEqual({
      header: { msgType: 'QueryResult' },
      message: { numMessagesSent: 3, queryElapsed: 0, result: 'Ok' },
    });
  });

  it('uses the configured header key, result, detail and count in the trailer', async () => {
    server.setOptions({
      headerKey: 'mTyp',
      trailer: { result: 'Error', detail: 'query timed out', numMessagesSent: 99 },
    });
    const raw = await rawGet(`${server.url}/rest/proto?msgType=Nope`);
    expect(raw.body.toString()).toBe(
      '[{"header":{"mTyp":"QueryResult"},"message":{"numMessagesSent":99,"queryElapsed":0,"result":"Error","detail":"query timed out"}}]',
    );
  });

  it('sends no trailer when trailer is false', async () => {
    server.setOptions({ trailer: false });
    expect(namesOf((await getListing()).body)).toEqual(['Order', 'Fill', 'Heartbeat', 'Account']);
  });
});

describe('starting and stopping', () => {
  it.each(['0.0.0.0', '192.168.1.10', '::', 'example.com'])('refuses to listen on %s', async (host) => {
    await expect(startTestServer({ listing: [], host })).rejects.toThrow(
      `The reference server listens on loopback only, not on "${host}".`,
    );
  });

  it('refuses a listing that is not an array and a bad port', async () => {
    await expect(startTestServer({ listing: {} as unknown[] })).rejects.toBeInstanceOf(ConfigError);
    await expect(startTestServer({ listing: [], port: 70000 })).rejects.toThrow(
      'Invalid reference server port 70000.',
    );
    expect(() => server.setListing('x' as unknown as unknown[])).toThrow('setListing: the listing must be an array');
  });

  it('reports a port already in use as a ConfigError', async () => {
    const port = Number(new URL(server.url).port);
    await expect(startTestServer({ listing: [], port })).rejects.toThrow(
      new RegExp(`^The reference server cannot listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE`),
    );
  });

  it('listens on the given loopback port, and close() may be called twice', async () => {
    const other = await startTestServer({ listing: [], host: 'localhost' });
    expect(other.url).toMatch(/^http:\/\/(127\.0\.0\.1|\[::1\]):\d+$/);
    await Promise.all([other.close(), other.close()]);
    await other.close();
    await expect(fetch(`${other.url}/rest/proto`)).rejects.toThrow();
  });
});

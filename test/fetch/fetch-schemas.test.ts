import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fetchSchemas, type FetchSchemasOptions } from '../../src/fetch/index.js';
import { forEachBounded } from '../../src/fetch/fetch-schemas.js';
import { readFieldType } from '../../src/model/wire-encodings.js';
import { FIELD_TYPES } from '../../src/model/field.js';
import { type SchemaSet } from '../../src/server/index.js';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { smallListing } from '../helpers/listing.js';

const fast = { baseDelayMs: 5, maxDelayMs: 20 };
const SCHEMAS: SchemaSet = {
  T0000: [
    { pos: 2, name: 'side', fNum: 11, isPkey: 'no', fType: 'ENUM', eSet: 'Buy, Sell,', label: 'Side', jsonEncType: 'String' },
    { pos: 1, name: 'orderId', fNum: '10', isPkey: 'Yes', fType: 'FIELDTYPE_LONG', desc: 'The order.' },
    { pos: 3, name: 'legs', fType: 21 },
    { pos: 4, name: 'legQty', inRepeater: 'legs', fType: '7', isPkey: true, eSet: null },
    { pos: 5, name: 'price', fType: 'Decimal128', inRepeater: '' },
  ],
  T0001: [{ pos: 1, name: 'ticker', fNum: 1, isPkey: 'YES', fType: 'tickerkey' }],
};

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ listing: smallListing(3) });
});
afterAll(() => server.close());
beforeEach(() => {
  server.setOptions({ schemas: SCHEMAS, trailer: false, apiKey: undefined, secret: undefined });
  server.setPersistentFault(undefined);
  server.requests.length = 0;
});

function fetchFor(names: string[], options: Partial<FetchSchemasOptions> = {}) {
  return fetchSchemas({ baseUrl: server.url, names, backoff: fast, timeout: 5_000, ...options });
}

async function failure(promise: Promise<unknown>): Promise<Error & { code?: string; hint?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

describe('fetchSchemas', () => {
  it('asks for each type once with cmd, msgType and the credentials, and normalises every encoding', async () => {
    server.setOptions({ apiKey: 'key-1', trailer: {} });
    const { fields, warnings } = await fetchFor(['T0000', 'T0001', 'T0002'], { apiKey: 'key-1' });
    expect(server.schemaRequests()).toEqual({ T0000: 1, T0001: 1, T0002: 1 });
    expect(server.requests[0]!.query).toEqual({ cmd: 'getschema', msgType: expect.any(String), apikey: 'key-1' });
    expect(fields.get('T0000')).toEqual([
      { name: 'orderId', pos: 1, fNum: 10, fType: 'Long', isPkey: true, desc: 'The order.', extra: {} },
      { name: 'side', pos: 2, fNum: 11, fType: 'Enum', isPkey: false, eSet: ['Buy', 'Sell'], extra: { jsonEncType: 'String', label: 'Side' } },
      { name: 'legs', pos: 3, fType: 'Repeater', extra: {} },
      { name: 'legQty', pos: 4, fType: 'Int', isPkey: true, inRepeater: 'legs', extra: {} },
      { name: 'price', pos: 5, fType: 'Decimal128', extra: {} },
    ]);
    // Key order is fixed, so the JSON of a fetched field equals that of a locked one.
    expect(Object.keys(fields.get('T0000')![1]!)).toEqual(['name', 'pos', 'fNum', 'fType', 'isPkey', 'eSet', 'extra']);
    expect(fields.get('T0001')).toEqual([{ name: 'ticker', pos: 1, fNum: 1, fType: 'TickerKey', isPkey: true, extra: {} }]);
    expect(warnings).toEqual([
      expect.stringMatching(/^getschema "T0000", element 4 \("price"\): unknown fType "Decimal128" kept as is; the field is typed unknown/),
      'getschema answered no fields for 1 message type ("T0002"): its record type is empty.',
    ]);
  });

  it('makes no request for no names', async () => {
    expect(await fetchFor([])).toEqual({ fields: new Map(), warnings: [] });
    expect(server.requests).toHaveLength(0);
  });

  it('retries as the listing does', async () => {
    server.queueFaults({ kind: 'status', status: 503 });
    const { fields } = await fetchFor(['T0001'], { retries: 2 });
    expect(fields.get('T0001')).toHaveLength(1);
    expect(server.schemaRequests()).toEqual({ T0001: 2 });
  });

  it('fails all or nothing: no request after a failure, and the error names the type', async () => {
    const error = await failure(fetchFor(['T0001', 'Nope', 'T0000'], { concurrency: 1 }));
    expect(error.message).toContain('msgType=Nope: the service reported QueryResult "Error": unknown message type Nope.');
    expect(error.hint).toMatch(/To pull the other types: add "Nope" to "exclude" in the config \(no code for it\), or turn fields off \(--no-fields, or "fields": false\)\.$/);
    expect(server.schemaRequests()).toEqual({ T0001: 1, Nope: 1 });
  });

  it.each<[string, SchemaSet[string], RegExp]>([
    ['an invalid field', [{ name: 'a', fNum: -1 }, { name: 7 }], /2 invalid fields in the field descriptors of "T0000":\n {2}element 0 \("a"\), field message\.fNum: expected a non-negative integer[\s\S]*element 1, field message\.name: expected a string/],
    ['a duplicate field', [{ name: 'a' }, { name: 'b' }, { name: 'a' }], /field "a" is described by elements 0 and 2/],
    ['a listing instead of fields', [{ header: { msgType: 'MsgDesc' }, message: { name: 'T0000' } }], /element 0 is a "MsgDesc", not a FieldDesc[\s\S]*/],
  ])('refuses %s, saying where', async (_label, fields, message) => {
    server.setOptions({ schemas: { T0000: fields } });
    const error = await failure(fetchFor(['T0000']));
    expect(error.message).toMatch(message);
    expect(error.hint).toMatch(/without --fields/);
    expect(error.hint).toContain('add "T0000" to "exclude"');
  });

  it('an error status for one type names both ways out in its hint', async () => {
    server.setPersistentFault({ kind: 'status', status: 500 });
    const error = await failure(fetchFor(['T0000'], { retries: 0 }));
    expect(error.message).toContain('HTTP 500');
    expect(error.hint).toContain('add "T0000" to "exclude" in the config');
    expect(error.hint).toContain('--no-fields');
  });

  it('scrubs an echoed key from the fields, and redacts it from errors', async () => {
    server.setOptions({ schemas: { T0000: [{ name: 'a', desc: 'asked with sk-echo-12345' }] } });
    const { fields, warnings } = await fetchFor(['T0000'], { apiKey: 'sk-echo-12345' });
    expect(fields.get('T0000')![0]!.desc).toBe('asked with ***');
    expect(warnings[0]).toContain('echoed the API key or secret in element 0 of the getschema answer for "T0000"');
    server.setOptions({ apiKey: 'right-key' });
    const error = await failure(fetchFor(['T0000'], { apiKey: 'sk-echo-12345', retries: 0 }));
    expect(error.message).toContain('HTTP 401');
    expect(`${error.message} ${error.hint}`).not.toContain('sk-echo-12345');
  });

  it('names an HTML page for what it is', async () => {
    server.setPersistentFault({ kind: 'html' });
    expect((await failure(fetchFor(['T0000']))).message).toMatch(/cmd=getschema&msgType=T0000: expected a JSON array, got text\/html/);
  });
});

describe('readFieldType', () => {
  it.each(FIELD_TYPES.map((type, index) => [type, index + 1] as const))('reads %s by name in any case, prefixed, and as number %i', (type, number) => {
    for (const written of [type, type.toUpperCase(), type.toLowerCase(), `FIELDTYPE_${type.toUpperCase()}`, number, String(number)]) {
      expect(readFieldType(written)).toBe(type);
    }
  });

  it.each([0, 22, 'None', 'Decimal', 'FIELDTYPE_', ''])('knows no type %j', (value) => {
    expect(readFieldType(value)).toBeUndefined();
  });
});

describe('forEachBounded', () => {
  it('runs at most `limit` at once, starts nothing after a failure, and throws the lowest failing index', async () => {
    const started: number[] = [];
    const release: Array<(fail: boolean) => void> = [];
    let running = 0;
    let most = 0;
    const done = forEachBounded([0, 1, 2, 3, 4, 5], 2, (item) => {
      started.push(item);
      most = Math.max(most, ++running);
      return new Promise<void>((resolve, reject) => {
        release[item] = (fail) => {
          running--;
          if (fail) reject(new Error(`failed ${item}`));
          else resolve();
        };
      });
    });
    done.catch(() => undefined);
    const settle = async (item: number, fail = false) => {
      release[item]!(fail);
      for (let i = 0; i < 5; i++) await Promise.resolve();
    };
    await settle(0);
    expect(started).toEqual([0, 1, 2]);
    await settle(2, true);
    await settle(1, true);
    expect(started).toEqual([0, 1, 2]);
    await expect(done).rejects.toThrow('failed 1');
    expect(most).toBe(2);
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/model/errors.js';
import { loadSchemasBeside, loadSchemasFile, schemasPathFor } from '../../src/server/index.js';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { smallListing } from './fixtures.js';

const ORDER_FIELDS = [
  { pos: 1, name: 'orderId', fNum: 10, isPkey: 'Yes', fType: 'Long' },
  { pos: 2, name: 'side', fNum: 11, isPkey: 'No', fType: 'Enum', eSet: 'Buy,Sell' },
];

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ listing: smallListing(), schemas: { Order: ORDER_FIELDS } });
});
afterAll(() => server.close());
beforeEach(() => {
  server.setOptions({ schemas: { Order: ORDER_FIELDS }, trailer: false, headerKey: undefined, apiKey: undefined });
  server.requests.length = 0;
});

async function getSchema(query: Record<string, string>): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${server.url}/rest/proto?${new URLSearchParams({ cmd: 'getschema', ...query }).toString()}`);
  return { status: response.status, body: await response.json() };
}

describe('getschema', () => {
  it('answers one FieldDesc element per field, in the schema file order, with the short header key', async () => {
    const { status, body } = await getSchema({ msgType: 'Order' });
    expect(status).toBe(200);
    expect(body).toEqual(ORDER_FIELDS.map((message) => ({ header: { mTyp: 'FieldDesc' }, message })));
  });

  it('appends the QueryResult trailer when configured, and spells the header key as asked', async () => {
    server.setOptions({ trailer: {}, headerKey: 'msgType' });
    const { body } = await getSchema({ msgType: 'Order' });
    expect(body).toEqual([
      ...ORDER_FIELDS.map((message) => ({ header: { msgType: 'FieldDesc' }, message })),
      { header: { msgType: 'QueryResult' }, message: { numMessagesSent: 2, queryElapsed: 0, result: 'Ok' } },
    ]);
  });

  it('answers no fields for a listed type without a schema, an error trailer for an unknown type, 400 without msgType', async () => {
    expect((await getSchema({ msgType: 'Fill' })).body).toEqual([]);
    expect((await getSchema({ msgType: 'Nope' })).body).toEqual([
      { header: { mTyp: 'QueryResult' }, message: { numMessagesSent: 0, queryElapsed: 0, result: 'Error', detail: 'unknown message type Nope' } },
    ]);
    expect(await getSchema({})).toEqual({ status: 400, body: { error: 'getschema needs msgType' } });
  });

  it('serves raw elements as they are, so clients can be tested against bad ones', async () => {
    const raw = { header: { msgType: 'FieldDesc' }, message: { name: 42 } };
    server.setOptions({ schemas: { Order: [raw, 'oops'] } });
    expect((await getSchema({ msgType: 'Order' })).body).toEqual([raw, { header: { mTyp: 'FieldDesc' }, message: 'oops' }]);
  });

  it('checks credentials as for the listing', async () => {
    server.setOptions({ apiKey: 'k' });
    expect((await getSchema({ msgType: 'Order' })).status).toBe(401);
    expect((await getSchema({ msgType: 'Order', apikey: 'k' })).status).toBe(200);
  });

  it('counts getschema requests per msgType, and nothing else', async () => {
    await getSchema({ msgType: 'Order' });
    await getSchema({ msgType: 'Order' });
    await getSchema({ msgType: 'Fill' });
    await fetch(`${server.url}/rest/proto?cmd=getmsgtypes&msgType=Order`);
    expect(server.schemaRequests()).toEqual({ Order: 2, Fill: 1 });
    server.requests.length = 0;
    expect(server.schemaRequests()).toEqual({});
  });

  it('refuses schemas that are not an object of arrays', async () => {
    expect(() => server.setOptions({ schemas: { Order: 'x' } as never })).toThrow(ConfigError);
  });
});

describe('schema files', () => {
  it('finds the example schemas beside the example listing', async () => {
    expect(schemasPathFor('examples/descriptors.json')).toBe('examples/descriptors.schemas.json');
    const schemas = await loadSchemasBeside('examples/descriptors.json');
    expect(Object.keys(schemas ?? {}).sort()).toEqual(['AccountRiskRecordV5', 'OptionNbboQuote', 'SpreadDefinition', 'StockBookQuote', 'TickerDefinition']);
    expect(await loadSchemasBeside('examples/github-workflow.yml')).toBeUndefined();
  });

  it("types the example's bidMask as the real dictionary does: a Long (records send a bare number, e.g. 4)", async () => {
    const schemas = (await loadSchemasBeside('examples/descriptors.json')) as Record<string, Array<{ name: string; fType: string; eSet?: string }>>;
    const bidMask = schemas['OptionNbboQuote']!.find((field) => field.name === 'bidMask');
    expect(bidMask).toMatchObject({ fType: 'Long', jsonEncType: 'Number' });
    expect(bidMask?.eSet).toBeUndefined();
  });

  it('names the file and what it must hold when it cannot be used', async () => {
    await expect(loadSchemasFile('examples/missing.schemas.json')).rejects.toThrow(/Cannot read schema file examples\/missing.schemas.json/);
    await expect(loadSchemasFile('examples/descriptors.json')).rejects.toThrow(/must be a JSON object of arrays/);
  });
});

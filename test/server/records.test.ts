/**
 * The reference server's records answers (`serve --records`), given/want over the example
 * records (examples/descriptors.records.json): every operator, AND, OR, parentheses, key parts,
 * a whole key, `pkey` of each key kind, `view`, a two-level `order` with `ABS`, `limit`, the
 * `QueryResult` that ends each answer, a malformed clause answered with `result: "Error"`, and
 * big integers served digit for digit.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadListingFile, loadSchemasFile } from '../../src/server/index.js';
import { framedBody, jsonBody, loadRecordFiles, parseExact, recordTypes, selectRecords, type RecordSet, type RecordTypes } from '../../src/server/records.js';
import { REPO_ROOT } from '../emit/helpers.js';
import { runInProcess } from '../cli/fake-io.js';

let set: RecordSet;
/** The example listing's message numbers, and the field names of the types it describes. */
let types: RecordTypes;

beforeAll(async () => {
  set = await loadRecordFiles([join(REPO_ROOT, 'examples/descriptors.records.json')]);
  types = recordTypes(await loadListingFile(join(REPO_ROOT, 'examples/descriptors.json')), await loadSchemasFile(join(REPO_ROOT, 'examples/descriptors.schemas.json')));
});

/** The answer's records as `tk xx cp` (or `tk`), and its QueryResult. */
function ask(query: Record<string, string>): { keys: string[]; result: Record<string, unknown> } {
  const answer = selectRecords(set, { cmd: 'getmsgs', ...query }, types) as { header: Record<string, unknown>; message: Record<string, any> }[];
  const result = answer.at(-1)!;
  expect(result.header).toEqual({ mTyp: 'QueryResult' });
  const keys = answer.slice(0, -1).map(({ message }) => {
    const key = Object.values(message['pkey'] ?? {})[0] as Record<string, unknown> | string;
    return typeof key === 'string' ? key : [key['tk'], key['xx'], key['cp']].filter((part) => part !== undefined).join(' ');
  });
  return { keys, result: result.message };
}

const ALL = ['SPX 4550 Call', 'SPX 4600 Put', 'AAPL 180 Call', 'AAPL 185 Put'];
const quotes = (where: string) => ask({ msgType: 'OptionNbboQuote', where }).keys;

describe('getmsgs over saved records', () => {
  it('answers the records of msgType (by name or number), ended by a QueryResult', () => {
    expect(ask({ msgType: 'OptionNbboQuote' })).toEqual({ keys: ALL, result: { numMessagesSent: 4, queryElapsed: 0, result: 'Ok' } });
    expect(ask({ msgType: '2533' }).keys).toEqual(['AAPL', 'SPY']);
    expect(ask({ msgType: 'NoSuchType' })).toEqual({ keys: [], result: { numMessagesSent: 0, queryElapsed: 0, result: 'Ok' } });
  });

  it.each([
    ['eq', 'bidSize:eq:10', ['SPX 4550 Call', 'AAPL 185 Put']],
    ['ne', 'bidExch:ne:CBOE', ['SPX 4600 Put', 'AAPL 180 Call']],
    ['gt', 'bidPrice:gt:2.1', ['AAPL 180 Call']],
    ['ge', 'bidPrice:ge:2.1', ['SPX 4600 Put', 'AAPL 180 Call']],
    ['lt', 'uPrc:lt:5000', ['AAPL 180 Call', 'AAPL 185 Put']],
    ['le', 'okey.xx:le:180', ['AAPL 180 Call']],
    ['sw', 'okey.tk:sw:SP', ['SPX 4550 Call', 'SPX 4600 Put']],
    ['ew', 'timestamp:ew:.651660', ['SPX 4550 Call', 'AAPL 180 Call']],
    ['cv', 'timestamp:cv:15:59', ['SPX 4550 Call', 'SPX 4600 Put']],
    ['nv', 'okey.dt:nv:2024', ['AAPL 180 Call', 'AAPL 185 Put']],
    ['cb', 'okey.xx:cb:180$4550', ['SPX 4550 Call', 'AAPL 180 Call', 'AAPL 185 Put']],
    ['cb with #', 'bidPrice:cb:1#2.1', ['SPX 4550 Call', 'SPX 4600 Put']],
    ['a 64-bit integer, exactly', 'srcTimestamp:gt:1690379504651660288', ['SPX 4600 Put', 'AAPL 180 Call']],
    ['a field left out is at its default', 'srcTimestamp:eq:0', ['AAPL 185 Put']],
    ['a whole key as its string', 'okey:eq:SPX-NMS-EQT-2024-03-15-4550-C', ['SPX 4550 Call']],
    ['a key part of an enum', 'okey.cp:eq:Put', ['SPX 4600 Put', 'AAPL 185 Put']],
    ['AND', 'bidSize:eq:1&askSize:eq:1', ['SPX 4600 Put', 'AAPL 180 Call']],
    ['OR', 'bidExch:eq:PHLX|okey.xx:eq:4600', ['SPX 4600 Put', 'AAPL 180 Call']],
    ['AND ranks before OR', 'okey.tk:eq:AAPL&bidSize:eq:10|okey.xx:eq:4550', ['SPX 4550 Call', 'AAPL 185 Put']],
    ['parentheses', '(bidSize:eq:1&askSize:eq:1)|(bidSize:eq:10)', ALL],
    ['nested parentheses', 'okey.tk:eq:SPX&(bidExch:eq:ISE|(bidSize:gt:5&askSize:gt:5))', ['SPX 4550 Call', 'SPX 4600 Put']],
  ])('where: %s', (_, where, want) => {
    expect(quotes(where)).toEqual(want);
  });

  it.each([
    ['an option key', 'OptionNbboQuote', 'AAPL-NMS-EQT-2023-07-28-185-P', ['AAPL 185 Put']],
    ['a ticker key', 'StockBookQuote', 'SPY-NMS-EQT', ['SPY']],
    ['an expiry key and a text key field, joined by |', 'SpreadDefinition', 'AAPL-NMS-EQT-2023-07-28|V180-185', ['AAPL']],
    ['four scalar key fields', 'AccountRiskRecordV5', 'ACC-1|USD|2024-03-15|Regular', ['ACC-1']],
    ['a key no record has', 'OptionNbboQuote', 'AAPL-NMS-EQT-2023-07-28-185-C', []],
  ])('pkey: %s', (_, msgType, pkey, want) => {
    expect(ask({ msgType, pkey }).keys).toEqual(want);
  });

  it('pkey: key fields in the order the field descriptors give, one a record leaves out at its default', () => {
    const account = (pkey: object) => ({ header: { mTyp: 'AccountRiskRecordV5' }, message: { pkey } });
    // Held in another order, and currency and riskSession left out (at their default, the first name of their set).
    const sparse: RecordSet = { elements: [account({ tradeDate: '2024-03-15', accnt: 'ACC-2' }), account({ accnt: 'ACC-3', currency: 'EUR', tradeDate: '2024-03-15', riskSession: 'Closing' })] };
    const keys = (pkey: string) => (selectRecords(sparse, { cmd: 'getmsgs', msgType: 'AccountRiskRecordV5', pkey }, types) as { message: { pkey: { accnt: string } } }[]).slice(0, -1).map((e) => e.message.pkey.accnt);
    expect(keys('ACC-2|None|2024-03-15|None')).toEqual(['ACC-2']);
    expect(keys('ACC-3|EUR|2024-03-15|Closing')).toEqual(['ACC-3']);
    expect(keys('ACC-2|2024-03-15')).toEqual([]);
  });

  it('order: two levels, DESC and ASC, ABS by absolute value; limit after the order', () => {
    expect(ask({ msgType: 'OptionNbboQuote', order: 'bidSize:DESC|bidPrice:ASC' }).keys).toEqual(['AAPL 185 Put', 'SPX 4550 Call', 'SPX 4600 Put', 'AAPL 180 Call']);
    expect(ask({ msgType: 'OptionNbboQuote', order: 'okey.tk:ASC|okey.xx:DESC', limit: '3' })).toEqual({ keys: ['AAPL 185 Put', 'AAPL 180 Call', 'SPX 4600 Put'], result: { numMessagesSent: 3, queryElapsed: 0, result: 'Ok' } });
    const signed: RecordSet = { elements: [-3, 1, -2].map((v, i) => ({ header: { mTyp: 'T' }, message: { pkey: { k: `k${i}` }, v } })) };
    const order = (o: string) => (selectRecords(signed, { cmd: 'getmsgs', msgType: 'T', order: o }, types) as { message: { v?: number } }[]).slice(0, -1).map((e) => e.message.v);
    expect(order('v:ASC')).toEqual([-3, -2, 1]);
    expect(order('v:ASC:ABS')).toEqual([1, -2, -3]);
    expect(order('v:DESC:ABS')).toEqual([-3, -2, 1]);
  });

  it('view: pkey and the viewed fields, nothing else (a key field name keeps pkey)', () => {
    const answer = selectRecords(set, { cmd: 'getmsgs', msgType: 'OptionNbboQuote', view: 'okey|bidPrice|askPrice', limit: '1' }, types);
    expect(answer[0]).toEqual({ header: { mTyp: 'OptionNbboQuote' }, message: { pkey: { okey: { at: 'EQT', ts: 'NMS', tk: 'SPX', dt: '2024-03-15', xx: 4550, cp: 'Call' } }, bidPrice: 1.25, askPrice: 1.35 } });
  });

  it.each([
    ['an unknown operator', { where: 'bidPrice:xx:1' }, 'invalid where "bidPrice:xx:1": clause "bidPrice:xx:1" has an unknown operator "xx" (use one of eq ne gt ge lt le sw ew cv nv cb)'],
    ['a clause without value', { where: 'bidPrice:eq' }, 'invalid where "bidPrice:eq": clause "bidPrice:eq" is not field:op:value'],
    ['a parenthesis not closed', { where: '(bidPrice:eq:1' }, 'invalid where "(bidPrice:eq:1": a parenthesis opened is not closed (at offset 14)'],
    ['a parenthesis not opened', { where: 'bidPrice:eq:1)' }, 'invalid where "bidPrice:eq:1)": unexpected ")" at offset 13'],
    ['a bad field name', { where: 'bid price:eq:1' }, 'invalid where "bid price:eq:1": clause "bid price:eq:1" has a bad field name "bid price"'],
    ['cb with one value', { where: 'bidPrice:cb:1' }, 'invalid where "bidPrice:cb:1": clause "bidPrice:cb:1" needs two values joined by "$" for cb'],
    ['a bad order', { order: 'bidPrice:UP' }, 'invalid order "bidPrice:UP": expected field:ASC or field:DESC, with :ABS after for an absolute value'],
    ['a bad limit', { limit: '0' }, 'invalid limit "0": must be an integer 1..10000'],
    ['a bad view', { view: 'bidPrice|a b' }, 'invalid view "bidPrice|a b": "a b" is not a field name'],
    ['no msgType', { msgType: '' }, 'getmsgs needs msgType'],
    ['another cmd', { cmd: 'getmsgtypes' }, 'unknown cmd "getmsgtypes" (records answer cmd=getmsgs)'],
    ['a field the type does not have (where)', { where: 'okey.tk:eq:A|bidPrise:eq:1' }, 'unknown field "bidPrise" of OptionNbboQuote'],
    ['a field the type does not have (order)', { order: 'bidPrice:ASC|size:DESC' }, 'unknown field "size" of OptionNbboQuote'],
    ['a field the type does not have (view)', { view: 'okey|legs' }, 'unknown field "legs" of OptionNbboQuote'],
  ])('a malformed query (%s) is answered with a QueryResult Error and its detail', (_, query, detail) => {
    expect(selectRecords(set, { cmd: 'getmsgs', msgType: 'OptionNbboQuote', ...query }, types)).toEqual([{ header: { mTyp: 'QueryResult' }, message: { numMessagesSent: 0, queryElapsed: 0, result: 'Error', detail } }]);
  });

  it('serves 64-bit integers digit for digit, as rest/json and framed as rest/jsonf', () => {
    const answer = selectRecords(set, { cmd: 'getmsgs', msgType: 'OptionNbboQuote', view: 'srcTimestamp', limit: '1' }, types);
    const json = jsonBody(answer);
    expect(json).toBe('[{"header":{"mTyp":"OptionNbboQuote"},"message":{"pkey":{"okey":{"at":"EQT","ts":"NMS","tk":"SPX","dt":"2024-03-15","xx":4550,"cp":"Call"}},"srcTimestamp":1690379504651660288}},{"header":{"mTyp":"QueryResult"},"message":{"numMessagesSent":1,"queryElapsed":0,"result":"Ok"}}]');
    // The example listing describes a QueryResult type too (number 2015), which frames the status.
    const framed = framedBody(answer, types.numberOf);
    const first = JSON.stringify(JSON.parse(json)[0]).replace('1690379504651660300', '1690379504651660288');
    expect(framed.startsWith(`\r\nJ01840${String(Buffer.byteLength(first)).padStart(6, '0')}${first}\r\nJ02015`)).toBe(true);
  });

  it('reads several files in turn, and refuses one that is not a records answer, naming it (serve: exit 2)', async () => {
    const file = join(REPO_ROOT, 'examples/descriptors.records.json');
    expect((await loadRecordFiles([file, file])).elements).toHaveLength(2 * set.elements.length);
    const listing = join(REPO_ROOT, 'examples/descriptors.schemas.json');
    await expect(loadRecordFiles([file, listing])).rejects.toThrow(`The records file ${listing} is not a records answer: it holds no JSON array.`);
    const run = await runInProcess(['serve', '--file', 'examples/descriptors.json', '--records', 'examples/nope.records.json'], { cwd: REPO_ROOT });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Cannot read the records file');
    expect(run.stderr).toContain('nope.records.json');
  });

  it('reads big integers exactly, and text that looks like one as text', () => {
    expect(parseExact('[{"a":-12345678901234567890,"b":"12345678901234567890","c":1.5e300,"d":"\\u0001x"}]')).toEqual([{ a: -12345678901234567890n, b: '12345678901234567890', c: 1.5e300, d: '\u0001x' }]);
  });
});

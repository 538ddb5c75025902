/**
 * Typed records queries (issue 39): `recordsQuery` of the generated output (target js+dts, the
 * five types examples/descriptors.schemas.json describes: an option key, a ticker key, an expiry
 * key with a second key field, four scalar key fields) gives the service's grammar exactly, given
 * and wanted as query strings; what the grammar cannot write is a `RecordsError` of kind `query`;
 * and the compiler checks a query against the type (one tsc run over one consumer: accepted
 * queries, and each refused one for its own reason).
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitFiles } from '../../src/emit/index.js';
import { makeTempDir, removeTempDir, REPO_ROOT, writeEmitted } from './helpers.js';
import { describedExampleTypes } from './described-types.js';
import { compileProjects, STRICT_CONSUMER, type TscResult } from '../helpers/tsc.js';

type Query = Record<string, unknown>;
type Api = {
  recordsQuery(name: string, query?: Query): URLSearchParams;
  RecordsError: new (...args: never[]) => Error & { kind: string };
};

const OKEY = { at: 'EQT', ts: 'NMS', tk: 'SPX', dt: '2024-03-15', xx: 4550, cp: 'Call' };

/** A consumer of the output: queries that compile, and (after a directive) each that must not. */
const CONSUMER = `
import { recordsQuery, fetchRecords, type RecordsQuery, type ViewedRecord, type OptionNbboQuoteRecord } from './out/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function holds<T extends true>(): T | undefined {
  return undefined;
}

export const everything = recordsQuery('OptionNbboQuote', {
  view: ['okey', 'bidPrice', 'askPrice'],
  where: { or: [{ and: [['bidSize', 'eq', 1], ['askSize', 'ge', 1]] }, ['okey.tk', 'sw', 'SP'], ['bidExch', 'ne', 'CBOE'], ['uPrc', 'cb', [1, 2.5]], ['srcTimestamp', 'gt', 1690379504651660288n]] },
  order: [['bidPrice', 'DESC'], ['uPrc', 'ASC', 'ABS']],
  pkey: { okey: { at: 'EQT', ts: 'NMS', tk: 'SPX', dt: '2024-03-15', xx: 4550, cp: 'Call' } },
  limit: 100,
});
export const wholeKey = recordsQuery('OptionNbboQuote', { where: ['okey', 'eq', 'SPX-NMS-EQT-2024-03-15-4550-C'], pkey: 'SPX-NMS-EQT-2024-03-15-4550-C' });
export const keyParts = recordsQuery('AccountRiskRecordV5', { where: ['currency', 'eq', 'USD'], pkey: { accnt: 'A1', currency: 'USD', tradeDate: '2024-03-15', riskSession: 'Regular' } });
export const text = recordsQuery('TickerDefinition', { where: { and: [['symbolName', 'cv', 'Apple'], ['description', 'ew', 'Inc'], ['listingDate', 'lt', '2000-01-01'], ['symbolFlags', 'cv', 'Halted']] } });
export const typed: RecordsQuery<'StockBookQuote'> = { where: ['ticker.tk', 'eq', 'AAPL'], order: [['timestamp', 'DESC']] };

export async function viewed(): Promise<unknown> {
  const answer = await fetchRecords('http://127.0.0.1:1', 'OptionNbboQuote', { view: ['bidPrice', 'askPrice'] });
  const record = answer.records[0]!.message;
  holds<Equal<typeof record, ViewedRecord<'OptionNbboQuote', 'bidPrice' | 'askPrice'>>>();
  holds<Equal<typeof record, Pick<OptionNbboQuoteRecord, 'pkey' | 'bidPrice' | 'askPrice'>>>();
  holds<Equal<(typeof answer.records)[number]['header']['mTyp'], 'OptionNbboQuote'>>();
  const whole = await fetchRecords('http://127.0.0.1:1', 'OptionNbboQuote');
  holds<Equal<(typeof whole.records)[number]['message'], OptionNbboQuoteRecord>>();
  return [record.pkey?.okey.tk, record.bidPrice, record.askPrice];
}
`;

/** A consumer with the DOM's types: what recordsQuery gives is the platform's URLSearchParams, and fetchRecords takes its fetch and an AbortSignal. */
const PLATFORM = `
import { fetchRecords, recordsQuery } from './out/index.js';

export const params: URLSearchParams = recordsQuery('StockBookQuote', { limit: 1 });
export const url = new URL(\`https://service.example/rest/json?\${params.toString()}\`);
export const answer = fetchRecords('https://service.example', 'StockBookQuote', undefined, { fetch, signal: new AbortController().signal });
`;

/** The refused queries, one a line, without directives: each error is asserted. */
const REFUSED = [
  ["recordsQuery('OptionNbboQuote', { view: ['bidPrise'] });", /TS2820: Type '"bidPrise"' is not assignable to type 'ViewName<"OptionNbboQuote">'\. Did you mean '"bidPrice"'\?/],
  ["recordsQuery('OptionNbboQuote', { where: ['bidPrise', 'eq', 1] });", /TS2322: Type '\["bidPrise", "eq", number\]' is not assignable to type 'Where<OptionNbboQuoteQueryFields> \| undefined'/],
  ["recordsQuery('OptionNbboQuote', { order: [['bidPrise', 'ASC']] });", /TS2820: Type '"bidPrise"' is not assignable to type '"okey" \| /],
  ["recordsQuery('OptionNbboQuote', { where: ['bidExch', 'gt', 'CBOE'] });", /TS2322: Type '\["bidExch", "gt", "CBOE"\]' is not assignable to type [^]*Type '"gt"' is not assignable to type '"eq" \| "ne"'/],
  ["recordsQuery('OptionNbboQuote', { where: ['bidExch', 'eq', 'CBOX'] });", /TS2322: Type '\["bidExch", "eq", "CBOX"\]' is not assignable to type [^]*Type '"CBOX"' is not assignable to type '"None" \| "AMEX" \| /],
  ["recordsQuery('OptionNbboQuote', { limit: '10' });", /TS2322: Type 'string' is not assignable to type 'number'\./],
  ["recordsQuery('TickerDefinition', { order: [['symbolName', 'ASC', 'ABS']] });", /TS2322: Type '\["symbolName", "ASC", "ABS"\]' is not assignable to type 'OrderBy<TickerDefinitionQueryFields>'/],
  ["recordsQuery('OptionNbboQuote', { where: ['okey', 'sw', 'SPX'] });", /TS2322: Type '\["okey", "sw", "SPX"\]' is not assignable to type [^]*Type '"sw"' is not assignable to type '"eq" \| "ne"'/],
  ["recordsQuery('OptionNbboQuote', { where: { and: [] } });", /TS2322: Type '\{ and: \[\]; \}' is not assignable to type 'Where<OptionNbboQuoteQueryFields> \| undefined'/],
  ["recordsQuery('OptionNbboQuote', { where: ['okey.xx', 'eq', 'high'] });", /TS2322: Type '\["okey\.xx", "eq", "high"\]' is not assignable to type [^]*Type at position 2 in source is not compatible[^]*Type 'string' is not assignable to type 'number'/],
  ["recordsQuery('StockBookQuote', { pkey: { okey: { at: 'EQT', ts: 'NMS', tk: 'SPX' } } });", /TS2353: Object literal may only specify known properties, and 'okey' does not exist in type 'StockBookQuotePKey'\./],
  ["(await fetchRecords('http://127.0.0.1:1', 'OptionNbboQuote', { view: ['bidPrice'] })).records[0]!.message.askPrice;", /TS2339: Property 'askPrice' does not exist on type 'Pick<OptionNbboQuoteRecord, "pkey" \| "bidPrice">'\./],
] as const;

let dir: string;
let api: Api;
let compiled: TscResult;
let platform: TscResult;

beforeAll(async () => {
  dir = await makeTempDir('records-query');
  await writeEmitted(join(dir, 'out'), await emitFiles({ messages: await describedExampleTypes(), source: { query: {} }, fields: true, int64: 'bigint', target: 'js+dts' }));
  api = (await import(pathToFileURL(join(dir, 'out/index.js')).href)) as Api;
  await writeFile(join(dir, 'consumer.ts'), CONSUMER);
  await writeFile(join(dir, 'refused.ts'), `import { recordsQuery, fetchRecords } from './out/index.js';\n${REFUSED.map(([line]) => line).join('\n')}\nexport {};\n`);
  // The example of docs/record-types.md, "A typed query end to end", with the two globals it uses declared (no DOM or Node.js types).
  const page = readFileSync(join(REPO_ROOT, 'docs/record-types.md'), 'utf8');
  const example = /```ts\n([\s\S]*?)```/.exec(page.slice(page.indexOf('### A typed query end to end')))![1]!;
  await writeFile(join(dir, 'docs-example.ts'), example.replace("'./src/generated/schema/index.js'", "'./out/index.js'"));
  await writeFile(join(dir, 'globals.d.ts'), 'declare const process: { env: { readonly [name: string]: string | undefined } };\ndeclare const console: { log(...values: unknown[]): void };\n');
  await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: STRICT_CONSUMER, include: ['*.ts', 'out/**/*.ts'], exclude: ['platform.ts'] }));
  // With the DOM's types: the query is the platform's URLSearchParams, and its fetch and AbortSignal fit.
  await writeFile(join(dir, 'platform.ts'), PLATFORM);
  await writeFile(join(dir, 'tsconfig.dom.json'), JSON.stringify({ compilerOptions: { ...STRICT_CONSUMER, lib: ['es2022', 'dom'] }, files: ['platform.ts'] }));
  [compiled, platform] = compileProjects(join(dir, 'tsconfig.json'), join(dir, 'tsconfig.dom.json')) as [TscResult, TscResult];
}, 60_000);
afterAll(() => removeTempDir(dir));

/** The query string of a query. */
const query = (name: string, q?: Query) => api.recordsQuery(name, q).toString();
const where = (name: string, w: unknown) => query(name, { where: w }).replace(`cmd=getmsgs&msgType=${name}&where=`, '');

describe('recordsQuery: the service grammar, encoded once', () => {
  it.each([
    ['eq', ['bidPrice', 'eq', 1.25], 'bidPrice%3Aeq%3A1.25'],
    ['ne', ['bidExch', 'ne', 'CBOE'], 'bidExch%3Ane%3ACBOE'],
    ['gt', ['bidSize', 'gt', 10], 'bidSize%3Agt%3A10'],
    ['ge', ['askSize', 'ge', -1], 'askSize%3Age%3A-1'],
    ['lt', ['srcTimestamp', 'lt', 1690379504651660288n], 'srcTimestamp%3Alt%3A1690379504651660288'],
    ['le', ['timestamp', 'le', '2024-03-15 16:00:00.000000'], 'timestamp%3Ale%3A2024-03-15+16%3A00%3A00.000000'],
    ['sw', ['okey.tk', 'sw', 'SP'], 'okey.tk%3Asw%3ASP'],
    ['ew', ['ticker.tk', 'ew', 'X'], 'ticker.tk%3Aew%3AX'],
    ['cv', ['okey.ts', 'cv', 'N M'], 'okey.ts%3Acv%3AN+M'],
    ['nv', ['okey.at', 'nv', 'EQ'], 'okey.at%3Anv%3AEQ'],
    ['cb', ['timestamp', 'cb', ['2024-03-15 09:30:00.000000', '2024-03-15 16:00:00.000000']], 'timestamp%3Acb%3A2024-03-15+09%3A30%3A00.000000%242024-03-15+16%3A00%3A00.000000'],
  ])('%s', (_, condition, want) => {
    expect(where('OptionNbboQuote', condition)).toBe(want);
  });

  it('AND and OR nest with parentheses around every group of several inside another', () => {
    const flat = { or: [{ and: [['bidSize', 'eq', 1], ['askSize', 'eq', 1]] }, ['bidSize', 'eq', 10]] };
    expect(where('OptionNbboQuote', flat)).toBe('%28bidSize%3Aeq%3A1%26askSize%3Aeq%3A1%29%7CbidSize%3Aeq%3A10');
    const deep = { and: [['okey.tk', 'eq', 'AAPL'], { or: [['bidExch', 'eq', 'CBOE'], { and: [['bidSize', 'gt', 0], ['askSize', 'gt', 0]] }] }, { or: [['uPrc', 'ge', 1]] }] };
    expect(api.recordsQuery('OptionNbboQuote', { where: deep }).get('where')).toBe('okey.tk:eq:AAPL&(bidExch:eq:CBOE|(bidSize:gt:0&askSize:gt:0))&uPrc:ge:1');
    expect(api.recordsQuery('OptionNbboQuote', { where: { and: [['bidSize', 'eq', 1]] } }).get('where')).toBe('bidSize:eq:1');
  });

  it('a whole key, as its object or its string, and key sub-fields', () => {
    expect(api.recordsQuery('OptionNbboQuote', { where: ['okey', 'eq', OKEY] }).get('where')).toBe('okey:eq:SPX-NMS-EQT-2024-03-15-4550-C');
    expect(where('OptionNbboQuote', ['okey', 'ne', { ...OKEY, xx: 182.5, cp: 'Put' }])).toBe('okey%3Ane%3ASPX-NMS-EQT-2024-03-15-182.5-P');
    expect(where('OptionNbboQuote', ['okey', 'eq', 'SPX-NMS-EQT-2024-03-15-4550-C'])).toBe('okey%3Aeq%3ASPX-NMS-EQT-2024-03-15-4550-C');
    expect(where('OptionNbboQuote', ['okey.xx', 'ge', 4500])).toBe('okey.xx%3Age%3A4500');
  });

  it.each([
    ['a ticker key', 'StockBookQuote', { ticker: { at: 'EQT', ts: 'NMS', tk: 'AAPL' } }, 'AAPL-NMS-EQT'],
    ['an expiry key and a second key field, joined by |', 'SpreadDefinition', { spreadName: 'V1', ekey: { at: 'EQT', ts: 'NMS', tk: 'AAPL', dt: '2023-07-28' } }, 'AAPL-NMS-EQT-2023-07-28%7CV1'],
    ['an option key', 'OptionNbboQuote', { okey: { at: 'EQT', ts: 'NMS', tk: 'AAPL', dt: '2023-07-28', xx: 180, cp: 'Call' } }, 'AAPL-NMS-EQT-2023-07-28-180-C'],
    ['four scalar key fields, in record order whatever the object', 'AccountRiskRecordV5', { riskSession: 'Regular', tradeDate: '2024-03-15', currency: 'USD', accnt: 'A 1' }, 'A+1%7CUSD%7C2024-03-15%7CRegular'],
    ['a string', 'SpreadDefinition', 'AAPL-NMS-EQT-2023-12-01|Live', 'AAPL-NMS-EQT-2023-12-01%7CLive'],
  ])('pkey: %s', (_, name, pkey, want) => {
    expect(query(name, { pkey })).toBe(`cmd=getmsgs&msgType=${name}&pkey=${want}`);
  });

  it('a view, a two-level order, a limit, every clause in its place', () => {
    expect(query('OptionNbboQuote')).toBe('cmd=getmsgs&msgType=OptionNbboQuote');
    expect(query('OptionNbboQuote', { order: [['bidPrice', 'DESC'], ['uPrc', 'ASC', 'ABS']], view: ['okey', 'bidPrice', 'askPrice'], limit: 10000, where: ['bidSize', 'gt', 0], pkey: OKEY && { okey: OKEY } })).toBe(
      'cmd=getmsgs&msgType=OptionNbboQuote&pkey=SPX-NMS-EQT-2024-03-15-4550-C&limit=10000&view=okey%7CbidPrice%7CaskPrice&where=bidSize%3Agt%3A0&order=bidPrice%3ADESC%7CuPrc%3AASC%3AABS',
    );
    expect(query('OptionNbboQuote', { view: [], order: [] })).toBe('cmd=getmsgs&msgType=OptionNbboQuote');
  });

  it.each([
    [{ limit: 0 }, 'limit must be an integer from 1 to 10000, got the number 0'],
    [{ limit: 10001 }, 'limit must be an integer from 1 to 10000, got the number 10001'],
    [{ limit: 1.5 }, 'limit must be an integer from 1 to 10000, got the number 1.5'],
    [{ limit: '10' }, 'limit must be an integer from 1 to 10000, got the string "10"'],
    [{ where: ['symbolName', 'eq', 'A&B'] }, 'where[2] holds "&", which the where grammar uses (& and, | or, parentheses) and cannot escape: narrow with another operator (sw, cv) instead'],
    [{ where: { or: [['bidSize', 'eq', 1], ['okey.tk', 'eq', 'X|Y']] } }, 'where.or[1][2] holds "|", which the where grammar uses'],
    [{ where: ['timestamp', 'cb', ['a$', 'b']] }, 'where[2] holds a "$", which separates the two values of cb'],
    [{ where: ['bidPrice', 'cb', 1] }, 'where[2] must be [low, high] for cb (between), got the number 1'],
    [{ where: { and: [] } }, 'where.and is empty: give at least one condition'],
    [{ where: { not: [] } }, 'where must be a condition [field, operator, value], { and: [...] } or { or: [...] }, got an object with the keys not'],
    [{ where: ['bidPrice', 'is', 1] }, 'where[1] must be one of eq ne gt ge lt le sw ew cv nv cb, got the string "is"'],
    [{ where: ['bid price', 'eq', 1] }, 'where[0] must be a field name (or key.part), got the string "bid price"'],
    [{ where: ['bidPrice', 'eq', Number.NaN] }, 'where[2] must be a finite number, got the number NaN'],
    [{ order: [['bidPrice', 'UP']] }, 'order[0][1] must be "ASC" or "DESC", got the string "UP"'],
    [{ pkey: { okey: { ...OKEY, cp: 'C' } } }, 'pkey.okey.cp must be "Call" or "Put", got the string "C"'],
    [{ pkey: {} }, "pkey must hold the type's one key field, got none"],
  ])('refuses %j: a RecordsError of kind query', (q, problem) => {
    let thrown: unknown;
    try {
      api.recordsQuery('OptionNbboQuote', q);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(api.RecordsError);
    expect(thrown).toMatchObject({ name: 'RecordsError', kind: 'query' });
    expect((thrown as Error).message).toContain(`The records query cannot be written: ${problem}`);
  });

  it('a multi-field key object missing a field names it', () => {
    expect(() => api.recordsQuery('SpreadDefinition', { pkey: { ekey: { at: 'EQT', ts: 'NMS', tk: 'AAPL', dt: '2023-07-28' } } })).toThrow('pkey.spreadName is missing: a key holds all its fields.');
  });
});

describe('the compiler checks a query against its type', () => {
  it("fits the platform's types where a project has them (the DOM's URLSearchParams, fetch and AbortSignal)", () => {
    expect(platform.output).toBe('');
  });

  it('accepts every clause typed (and the example of docs/record-types.md), types a viewed record by its view, and refuses each wrong query for its reason', () => {
    // Each diagnostic with its elaboration (the indented lines after it), which names the reason.
    const lines = compiled.output
      .trim()
      .split(/\n(?=\S)/)
      .map((diagnostic) => diagnostic.replace(/^.*refused\.ts/, 'refused.ts'));
    expect(lines.filter((line) => !line.startsWith('refused.ts'))).toEqual([]);
    expect(lines.map((line) => Number(/^refused\.ts\((\d+),/.exec(line)?.[1]))).toEqual(REFUSED.map((_, i) => i + 2));
    REFUSED.forEach(([, error], i) => expect(lines[i]).toMatch(error));
  });
});

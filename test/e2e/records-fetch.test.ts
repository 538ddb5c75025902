/**
 * Typed records queries end to end (issue 39): `schema-sync serve --records` (the CLI, in this
 * process, running for the whole file) serves the example records
 * (examples/descriptors.records.json) with a required key and secret, and `fetchRecords` of the
 * generated output (js+dts, int64 bigint, the five described example types) asks it: each clause
 * gives exactly the records and fields it selects, validated and typed; a `QueryResult` `Error`
 * is a `RecordsError` of kind `failed`; a 401 names the missing key and shows none; the framed
 * `rest/jsonf` answer reads the same; and the example of docs/record-types.md runs as it says.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { emitFiles } from '../../src/emit/index.js';
import { Capture } from '../cli/fake-io.js';
import { removeDir, ROOT, tempDir } from '../helpers/cli.js';
import { writeEmitted } from '../emit/helpers.js';
import { describedExampleTypes } from '../emit/described-types.js';

const KEY = 'records-key-7f3a9c';
const SECRET = 'records-secret-41d2e8';
const OKEY = { at: 'EQT', ts: 'NMS', tk: 'SPX', dt: '2024-03-15', xx: 4550, cp: 'Call' };

type Element = { header: { mTyp: string }; message: Record<string, any> };
type Answer = { records: Element[]; result: Record<string, unknown>; drift: unknown[] };
type Api = {
  fetchRecords(baseUrl: string, name: string, query?: object, options?: object): Promise<Answer>;
  parseRecords(text: string): Answer;
  recordsQuery(name: string, query?: object): URLSearchParams;
  RecordsError: new (...args: never[]) => Error;
};

let dir: string;
let api: Api;
let url: string;
let stop: () => void;
let served: Promise<number>;
const stderr = new Capture();

beforeAll(async () => {
  dir = await tempDir('schema-sync-records-fetch-');
  await writeEmitted(join(dir, 'out'), await emitFiles({ messages: await describedExampleTypes(), source: { query: {} }, fields: true, int64: 'bigint', target: 'js+dts' }));
  api = (await import(pathToFileURL(join(dir, 'out/index.js')).href)) as Api;
  // `serve` runs until the file's tests are done: its untilStopped resolves in afterAll.
  const stdout = new Capture();
  const stdin = new PassThrough();
  stdin.end();
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  let started!: () => void;
  const ready = new Promise<void>((resolve) => (started = resolve));
  const argv = ['serve', '--file', 'examples/descriptors.json', '--records', 'examples/descriptors.records.json', '--api-key', KEY, '--secret', SECRET];
  served = runCli(argv, { stdout, stderr, stdin, env: {}, cwd: ROOT, untilStopped: () => (started(), stopped) });
  await Promise.race([ready, served.then((code) => Promise.reject(new Error(`serve ended with ${code}: ${stderr.text}`)))]);
  url = stdout.text.split('\n')[0]!.trim();
}, 60_000);
afterAll(async () => {
  stop();
  expect(await served).toBe(0);
  await removeDir(dir);
});

const CREDENTIALS = { apiKey: KEY, secret: SECRET };
/** The records of a query, each as `tk xx cp` (or its first key's text). */
async function keys(name: string, query?: object): Promise<string[]> {
  const { records } = await api.fetchRecords(url, name, query, CREDENTIALS);
  for (const element of records) expect(element.header.mTyp).toBe(name);
  return records.map(({ message }) => {
    const key = Object.values(message['pkey'] as object)[0] as Record<string, unknown> | string;
    return typeof key === 'string' ? key : [key['tk'], key['xx'], key['cp']].filter((part) => part !== undefined).join(' ');
  });
}

describe('fetchRecords against serve --records', () => {
  it('serve says what it serves', () => {
    expect(stderr.text).toContain('9 records at http://127.0.0.1:');
  });

  it('without a clause: every record of the type, validated, a 64-bit timestamp exact', async () => {
    const answer = await api.fetchRecords(url, 'OptionNbboQuote', undefined, CREDENTIALS);
    expect(answer.records.map((r) => r.message['srcTimestamp'])).toEqual([1690379504651660288n, 1690379504651660301n, 1690379504651660999n, undefined]);
    expect(answer.result).toEqual({ numMessagesSent: 4, queryElapsed: 0, result: 'Ok' });
    expect(answer.drift).toEqual([]);
  });

  it.each([
    ['where, AND', { where: { and: [['okey.tk', 'eq', 'SPX'], ['bidExch', 'eq', 'ISE']] } }, ['SPX 4600 Put']],
    ['where, OR with a group', { where: { or: [{ and: [['bidSize', 'eq', 1], ['askSize', 'eq', 1]] }, ['okey.xx', 'eq', 185]] } }, ['SPX 4600 Put', 'AAPL 180 Call', 'AAPL 185 Put']],
    ['where, a whole key as its object', { where: ['okey', 'eq', OKEY] }, ['SPX 4550 Call']],
    ['where, cb of dates', { where: ['timestamp', 'cb', ['2023-07-26 00:00:00.000000', '2023-07-26 13:51:44.700000']] }, ['AAPL 180 Call']],
    ['where, a 64-bit integer compared exactly', { where: ['srcTimestamp', 'gt', 1690379504651660288n] }, ['SPX 4600 Put', 'AAPL 180 Call']],
    ['order, two levels', { order: [['bidSize', 'DESC'], ['bidPrice', 'ASC']] }, ['AAPL 185 Put', 'SPX 4550 Call', 'SPX 4600 Put', 'AAPL 180 Call']],
    ['pkey, an option key', { pkey: { okey: { ...OKEY, tk: 'AAPL', dt: '2023-07-28', xx: 185, cp: 'Put' } } }, ['AAPL 185 Put']],
    ['limit', { limit: 2, order: [['okey.xx', 'ASC']] }, ['AAPL 180 Call', 'AAPL 185 Put']],
  ])('%s', async (_, query, want) => {
    expect(await keys('OptionNbboQuote', query)).toEqual(want);
  });

  it('pkey of each other key kind: a ticker key, an expiry key with a text key field, four scalar key fields', async () => {
    expect(await keys('StockBookQuote', { pkey: { ticker: { at: 'EQT', ts: 'NMS', tk: 'SPY' } } })).toEqual(['SPY']);
    expect(await keys('SpreadDefinition', { pkey: { spreadName: 'V180-185', ekey: { at: 'EQT', ts: 'NMS', tk: 'AAPL', dt: '2023-07-28' } } })).toEqual(['AAPL']);
    expect(await keys('AccountRiskRecordV5', { pkey: { accnt: 'ACC-1', currency: 'USD', tradeDate: '2024-03-15', riskSession: 'Regular' } })).toEqual(['ACC-1']);
  });

  it('a view: each record holds pkey and the viewed fields, nothing else', async () => {
    const { records } = await api.fetchRecords(url, 'OptionNbboQuote', { view: ['bidPrice', 'askPrice'], where: ['okey.tk', 'eq', 'AAPL'] }, CREDENTIALS);
    expect(records.map((r) => r.message)).toEqual([
      { pkey: { okey: { at: 'EQT', ts: 'NMS', tk: 'AAPL', dt: '2023-07-28', xx: 180, cp: 'Call' } }, bidPrice: 3.4, askPrice: 3.55 },
      { pkey: { okey: { at: 'EQT', ts: 'NMS', tk: 'AAPL', dt: '2023-07-28', xx: 185, cp: 'Put' } }, bidPrice: 0.95, askPrice: 1.05 },
    ]);
  });

  it('the framed rest/jsonf answer reads as the same records', async () => {
    const query = api.recordsQuery('OptionNbboQuote', { where: ['okey.tk', 'eq', 'SPX'] });
    const get = async (path: string) => (await fetch(`${url}/rest/${path}?${query.toString()}&apikey=${KEY}&secret=${SECRET}`)).text();
    const framed = await get('jsonf');
    expect(framed.startsWith('\r\nJ01840')).toBe(true);
    expect(api.parseRecords(framed)).toEqual(api.parseRecords(await get('json')));
  });

  it('a QueryResult Error (a field the service does not know) is a RecordsError of kind failed, with its detail', async () => {
    const error = await api.fetchRecords(url, 'OptionNbboQuote', { where: ['bidPrise', 'eq', 1] }, CREDENTIALS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(api.RecordsError);
    expect(error).toMatchObject({ kind: 'failed', result: { result: 'Error', detail: 'unknown field "bidPrise" of OptionNbboQuote' } });
    // The detail in the message is cut short (RecordsError quotes server text short); whole in error.result.
    expect((error as Error).message).toBe('The query failed: QueryResult Error: "unknown field \\"bidPrise\\" of OptionNbboQu…".');
  });

  it('a 401 names the missing key and shows no key or secret, also when the server echoes a wrong one', async () => {
    const missing = await api.fetchRecords(url, 'OptionNbboQuote').catch((e: unknown) => e);
    expect(missing).toMatchObject({ name: 'RecordsError', kind: 'status', status: 401 });
    expect((missing as Error).message).toBe(
      'The records query of "OptionNbboQuote" was answered with HTTP 401 Unauthorized: {\\"error\\":\\"missing apikey\\"}. No apiKey was given: pass options.apiKey (and options.secret if the service asks for one).',
    );
    const wrong = { apiKey: 'wrong key-5e1b77', secret: SECRET };
    const echoed = await api.fetchRecords(url, 'OptionNbboQuote', undefined, wrong).catch((e: unknown) => e);
    expect(echoed).toMatchObject({ kind: 'status', status: 401 });
    expect((echoed as Error).message).toContain('invalid apikey [redacted]');
    for (const error of [missing, echoed]) {
      for (const secret of [KEY, SECRET, wrong.apiKey, 'wrong+key', 'wrong%20key']) expect(`${(error as Error).message} ${(error as Error).stack} ${JSON.stringify(error)}`).not.toContain(secret);
    }
  });

  it('no answer is a RecordsError of kind network; a base URL with user info or a query is one of kind query; neither shows a credential', async () => {
    const closed = await api.fetchRecords('http://127.0.0.1:9', 'OptionNbboQuote', undefined, CREDENTIALS).catch((e: unknown) => e);
    expect(closed).toMatchObject({ name: 'RecordsError', kind: 'network' });
    expect((closed as Error).message).toMatch(/^The records query of "OptionNbboQuote" got no answer from "http:\/\/127\.0\.0\.1:9": /);
    const userInfo = await api.fetchRecords(`http://user:${SECRET}@127.0.0.1:9`, 'OptionNbboQuote').catch((e: unknown) => e);
    expect(userInfo).toMatchObject({ kind: 'query' });
    expect((userInfo as Error).message).toContain('got the string "http://…@127.0.0.1:9"');
    const query = await api.fetchRecords(`${url}/?apikey=${KEY}`, 'OptionNbboQuote').catch((e: unknown) => e);
    expect(query).toMatchObject({ kind: 'query' });
    for (const error of [closed, userInfo, query]) expect(`${(error as Error).message} ${JSON.stringify(error)}`).not.toMatch(new RegExp(`${KEY}|${SECRET}`));
  });

  it('another status: its kind, status and a short excerpt; options.fetch and options.signal are used', async () => {
    const notFound = await api.fetchRecords(`${url}/elsewhere`, 'OptionNbboQuote', undefined, CREDENTIALS).catch((e: unknown) => e);
    expect(notFound).toMatchObject({ kind: 'status', status: 404 });
    const asked: string[] = [];
    const answer = await api.fetchRecords(url, 'StockBookQuote', { limit: 1 }, { ...CREDENTIALS, fetch: (target: string, init: object) => (asked.push(target), fetch(target, init)) });
    expect(answer.records).toHaveLength(1);
    expect(asked).toEqual([`${url}/rest/json?cmd=getmsgs&msgType=StockBookQuote&limit=1&apikey=${KEY}&secret=${SECRET}`]);
    const aborted = await api.fetchRecords(url, 'StockBookQuote', undefined, { ...CREDENTIALS, signal: AbortSignal.abort(new Error('stopped by the test')) }).catch((e: unknown) => e);
    expect(aborted).toEqual(new Error('stopped by the test'));
  });

  it('the example of docs/record-types.md runs against serve and prints what the page says', async () => {
    const page = readFileSync(join(ROOT, 'docs/record-types.md'), 'utf8');
    const section = page.slice(page.indexOf('## Typed queries'));
    const example = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
    const printed = /it prints:\n\n```text\n([\s\S]*?)```/.exec(section)![1]!;
    const js = ts.transpileModule(example.replace("'./src/generated/schema/index.js'", "'./out/index.js'"), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    await writeFile(join(dir, 'example.mjs'), js);
    // A child process, not a synchronous one: the server it asks runs in this one.
    const run = await promisify(execFile)(process.execPath, ['example.mjs'], { cwd: dir, env: { PATH: process.env['PATH'], SCHEMA_SYNC_RECORDS_URL: url, SCHEMA_SYNC_API_KEY: KEY, SCHEMA_SYNC_SECRET: SECRET } });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(printed);
  });
});

/**
 * The records at run time: `parseRecords` of the generated output (target js+dts, plain
 * JavaScript run by Node) over answers shaped like the vendor's public samples, given/want, under
 * each int64 setting; and the runtime's JavaScript and declarations held to its source.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitFiles } from '../../src/emit/index.js';
import type { Int64Type } from '../../src/model/lockfile.js';
import { makeField, type FieldDescriptor } from '../../src/model/field.js';
import { descriptor, makeTempDir, removeTempDir, REPO_ROOT, runTsc, writeEmitted } from './helpers.js';
import { STRICT_CONSUMER } from '../helpers/tsc.js';
// @ts-expect-error a plain ES module of scripts/, without declarations
import { runtimeOutputs } from '../../scripts/runtime-outputs.mjs';

const field = (name: string, fType: string, more: Partial<FieldDescriptor> = {}): FieldDescriptor => makeField({ name, fType, ...more }, {});
const EXCHANGES = ['None', 'AMEX', 'BOX', 'CBOE', 'ISE', 'PHLX'];

/** Three message types as the vendor's data dictionary describes them (examples/descriptors.schemas.json's shapes). */
export const RECORD_TYPES = [
  descriptor({
    name: 'OptionNbboQuote',
    mNum: 2785,
    fields: [
      field('okey', 'OptionKey', { pos: 1, isPkey: true }),
      field('bidPrice', 'Double', { pos: 2 }),
      field('bidSize', 'Int', { pos: 3 }),
      field('bidExch', 'Enum', { pos: 4, eSet: EXCHANGES }),
      field('bidMask', 'Flag', { pos: 5, eSet: EXCHANGES }),
      field('srcTimestamp', 'Long', { pos: 6 }),
      field('timestamp', 'DateTime', { pos: 7 }),
    ],
  }),
  descriptor({
    name: 'SpreadDefinition',
    mNum: 2484,
    fields: [
      field('ekey', 'ExpiryKey', { pos: 1, isPkey: true }),
      field('spreadName', 'String', { pos: 2, isPkey: true }),
      field('legs', 'Repeater', { pos: 3 }),
      field('legRatio', 'Int', { pos: 4, inRepeater: 'legs' }),
      field('legSide', 'Enum', { pos: 5, inRepeater: 'legs', eSet: ['None', 'Buy', 'Sell'] }),
    ],
  }),
  // A listed QueryResult type (with a key field, as a synthetic listing gives it): its record type is the status type.
  // Described with no fields: its record type takes no field (issue 41 item 7).
  descriptor({ name: 'Bare', mNum: 7, fields: [] }),
  descriptor({ name: 'QueryResult', mNum: 9999, fields: [field('ticker', 'TickerKey', { pos: 0, isPkey: true }), field('numMessagesSent', 'Long', { pos: 1 }), field('result', 'String', { pos: 2 })] }),
];

const OKEY = { at: 'EQT', ts: 'NMS', tk: 'SPX', dt: '2024-03-15', xx: 4550, cp: 'Call' };
const QUOTE = `{ "header": { "mTyp": "OptionNbboQuote" }, "message": { "pkey": { "okey": ${JSON.stringify(OKEY)} }, "bidPrice": 1.25, "bidExch": "CBOE", "bidMask": "CBOE|ISE", "srcTimestamp": 1690379504651660288, "timestamp": "2023-07-26 13:51:44.651660" } }`;
const SPREAD = `{ "header": { "mTyp": "SpreadDefinition" }, "message": { "pkey": { "ekey": { "at": "EQT", "ts": "NMS", "tk": "AAPL", "dt": "2023-07-28" }, "spreadName": "V1" }, "legs": [{ "legRatio": 1, "legSide": "Buy" }, { "legRatio": -1, "legSide": "Sell" }] } }`;
const OK = (n: number) => `{ "header": { "mTyp": "QueryResult" }, "message": { "numMessagesSent": ${n}, "queryElapsed": 0.0341, "result": "Ok" } }`;
const ANSWER = `[\n${QUOTE},\n${SPREAD},\n${OK(2)}\n]`;

/** An answer framed as `rest/jsonf` sends it: CR LF, `J`, the message number (5 digits), the length (6). */
function framed(elements: { mNum: number; text: string }[]): string {
  return elements.map(({ mNum, text }) => `\r\nJ${String(mNum).padStart(5, '0')}${String(Buffer.byteLength(text)).padStart(6, '0')}${text}`).join('');
}

type Parsed = { records: { header: { mTyp: string }; message: Record<string, unknown> }[]; result: Record<string, unknown>; drift: { kind: string; type: string; field?: string; message: string }[] };
type Api = {
  parseRecords(text: string, options?: object): Parsed;
  safeParseRecords(text: string, options?: object): { success: true; data: Parsed } | { success: false; error: { name: string; kind: string; message: string; issues: { path: (string | number)[]; message: string }[]; result?: unknown } };
  recordSchemas: Record<string, { '~standard': { validate(value: unknown): { value?: unknown; issues?: { message: string; path: unknown[] }[] } } }>;
  RecordsError: new (...args: never[]) => Error;
};

let dir: string;
const api = {} as Record<Int64Type, Api>;

beforeAll(async () => {
  dir = await makeTempDir('records-parse');
  for (const int64 of ['number', 'bigint', 'string'] as const) {
    await writeEmitted(join(dir, int64), await emitFiles({ messages: RECORD_TYPES, source: { query: {} }, fields: true, int64, target: 'js+dts' }));
    api[int64] = (await import(pathToFileURL(join(dir, int64, 'index.js')).href)) as Api;
  }
}, 60_000);
afterAll(() => removeTempDir(dir));

/** The error of an answer that does not parse. */
function failure(int64: Int64Type, text: string, options?: object) {
  const result = api[int64].safeParseRecords(text, options);
  if (result.success) throw new Error('parsed');
  return result.error;
}

describe('parseRecords: valid answers give exactly their values', () => {
  it('OptionNbboQuote (okey, two flag names, a DateTime), an ExpiryKey record with a repeating group, QueryResult Ok; a 19-digit timestamp exact under bigint and string', () => {
    const byMode = { bigint: 1690379504651660288n, string: '1690379504651660288' } as const;
    for (const int64 of ['bigint', 'string'] as const) {
      const { records, result, drift } = api[int64].parseRecords(ANSWER);
      expect(records).toEqual([
        { header: { mTyp: 'OptionNbboQuote' }, message: { pkey: { okey: OKEY }, bidPrice: 1.25, bidExch: 'CBOE', bidMask: 'CBOE|ISE', srcTimestamp: byMode[int64], timestamp: '2023-07-26 13:51:44.651660' } },
        { header: { mTyp: 'SpreadDefinition' }, message: { pkey: { ekey: { at: 'EQT', ts: 'NMS', tk: 'AAPL', dt: '2023-07-28' }, spreadName: 'V1' }, legs: [{ legRatio: 1, legSide: 'Buy' }, { legRatio: -1, legSide: 'Sell' }] } },
      ]);
      expect(result).toEqual({ numMessagesSent: 2, queryElapsed: 0.0341, result: 'Ok' });
      expect(drift).toEqual([]);
    }
  });

  it('a framed rest/jsonf answer reads as the same records', () => {
    const text = framed([{ mNum: 2785, text: QUOTE }, { mNum: 2484, text: SPREAD }, { mNum: 9999, text: OK(2) }]);
    expect(text.slice(0, 14)).toBe(`\r\nJ02785${String(Buffer.byteLength(QUOTE)).padStart(6, '0')}`);
    expect(api.bigint.parseRecords(text)).toEqual(api.bigint.parseRecords(ANSWER));
  });

  it('exact integers: digits inside strings stay text, fractions and exponents stay numbers, small Longs are exact too', () => {
    const text = `[{ "header": { "mTyp": "OptionNbboQuote" }, "message": { "timestamp": "x 12345678901234567890 y", "bidPrice": 1.12345678901234567, "srcTimestamp": -9007199254740993 } },
      { "header": { "mTyp": "OptionNbboQuote" }, "message": { "srcTimestamp": 4, "bidPrice": 12345678901234567e2 } }, ${OK(2)}]`;
    const { records } = api.bigint.parseRecords(text);
    expect(records.map((r) => r.message)).toEqual([
      { timestamp: 'x 12345678901234567890 y', bidPrice: 1.12345678901234567, srcTimestamp: -9007199254740993n },
      { srcTimestamp: 4n, bidPrice: 12345678901234567e2 },
    ]);
  });

  it('a scalar key field left out (at its default, as the service leaves it) is given its default; a QueryResult type of the listing is the status type', () => {
    const text = `[{ "header": { "mTyp": "SpreadDefinition" }, "message": { "pkey": { "ekey": { "at": "EQT", "ts": "NMS", "tk": "AAPL", "dt": "2023-07-28" } } } }, ${OK(1)}]`;
    expect(api.number.parseRecords(text).records[0]!.message).toEqual({ pkey: { ekey: { at: 'EQT', ts: 'NMS', tk: 'AAPL', dt: '2023-07-28' }, spreadName: '' } });
    expect(api.bigint.recordSchemas['QueryResult']!['~standard'].validate({ numMessagesSent: 3, result: 'Ok' })).toEqual({ value: { numMessagesSent: 3, result: 'Ok' } });
  });
});

describe('parseRecords: what it refuses, by kind and path', () => {
  it('invalid: each issue with its path, what was expected and what came (quoted short and safe)', () => {
    const text = ANSWER.replace('"dt":"2024-03-15"', '"dt":5').replace('"legRatio": -1', '"legRatio": "x\u202e"').replace('"bidPrice": 1.25', '"bidPrice": null');
    const error = failure('number', text, { roundInt64: true });
    expect(error).toMatchObject({ name: 'RecordsError', kind: 'invalid' });
    expect(error.issues.map((issue) => issue.message)).toEqual([
      '[0].message.pkey.okey.dt: expected a string, got the number 5',
      '[0].message.bidPrice: expected a number, got null',
      '[1].message.legs[1].legRatio: expected an integer from -2147483648 to 2147483647, got the string "x\\u202e"',
    ]);
    expect(error.message).toMatch(/^The answer does not match its types: 3 issues: \[0\]\.message\.pkey\.okey\.dt: expected a string/);
  });

  it('int64 number: a value beyond 2^53 is an issue naming the field and the setting, unless the caller takes it rounded', () => {
    const error = failure('number', ANSWER);
    expect(error.issues.map((issue) => issue.message)).toEqual([
      '[0].message.srcTimestamp: expected an integer within ±2^53, as int64 "number" types it (pull with --int64 bigint or string to keep such values exact, or pass roundInt64: true to take them rounded), got the number 1690379504651660300',
    ]);
    expect(api.number.parseRecords(ANSWER, { roundInt64: true }).records[0]!.message['srcTimestamp']).toBe(1690379504651660288);
  });

  it('not JSON, not an answer, a missing key object', () => {
    expect(failure('bigint', '[{"a": }]')).toMatchObject({ kind: 'invalid', message: expect.stringMatching(/^The answer is not JSON/) });
    expect(failure('number', '{"header": {}}')).toMatchObject({ kind: 'invalid', message: 'The answer is not an array of elements: it is an object.' });
    const noKey = failure('number', ANSWER.replace(`"okey": ${JSON.stringify(OKEY)}`, '"other": 1'), { roundInt64: true });
    expect(noKey.issues.map((issue) => issue.path)).toEqual([[0, 'message', 'pkey', 'okey']]);
  });

  it('failed: a QueryResult Error with its detail', () => {
    const error = failure('number', `[{ "header": { "mTyp": "QueryResult" }, "message": { "numMessagesSent": 0, "result": "Error", "detail": "bad where clause" } }]`);
    expect(error).toMatchObject({ kind: 'failed', message: 'The query failed: QueryResult Error: "bad where clause".', result: { result: 'Error', detail: 'bad where clause' } });
  });

  it('truncated: cut before its QueryResult, cut mid-element, fewer records than numMessagesSent, a frame shorter than its length', () => {
    expect(failure('bigint', `[\n${QUOTE},\n${SPREAD}\n]`)).toMatchObject({ kind: 'truncated', message: 'The answer is cut short: it does not end with a QueryResult (2 elements read).' });
    expect(failure('bigint', ANSWER.slice(0, ANSWER.indexOf(SPREAD) + 40))).toMatchObject({ kind: 'truncated' });
    expect(failure('bigint', `[${QUOTE}, ${OK(3)}]`)).toMatchObject({ kind: 'truncated', message: 'The answer is cut short: its QueryResult says 3 records were sent, it holds 1.' });
    const cut = framed([{ mNum: 2785, text: QUOTE }, { mNum: 9999, text: OK(1) }]);
    expect(failure('bigint', cut.slice(0, -10))).toMatchObject({ kind: 'truncated', message: expect.stringMatching(/^The answer is cut short: element 1 holds \d+ of the \d+ bytes its frame says\.$/) });
  });
});

describe('schema drift at run time', () => {
  const drifted = ANSWER.replace('"bidExch": "CBOE"', '"bidExch": "MEMX", "newField": 1, "other": {}').replace('"legSide": "Sell"', '"legSide": "Short", "legNote": "x"');

  it('unknown fields are kept out of the records and reported once per type and field with the hint; an unknown enum name is kept as the unknown-name case and reported', () => {
    const told: unknown[] = [];
    const twice = drifted.replace(OK(2), `${QUOTE.replace('"bidExch": "CBOE"', '"bidExch": "MEMX", "newField": 2')}, ${OK(3)}`);
    const { records, drift } = api.string.parseRecords(twice, { onDrift: (finding: unknown) => told.push(finding) });
    expect(records[0]!.message).toEqual({ pkey: { okey: OKEY }, bidPrice: 1.25, bidExch: { unknown: 'MEMX' }, bidMask: 'CBOE|ISE', srcTimestamp: '1690379504651660288', timestamp: '2023-07-26 13:51:44.651660' });
    expect((records[1]!.message['legs'] as unknown[])[1]).toEqual({ legRatio: -1, legSide: { unknown: 'Short' } });
    expect(told).toEqual(drift);
    expect(drift.map((finding) => [finding.kind, finding.type, finding.field])).toEqual([
      ['name', 'OptionNbboQuote', 'bidExch'],
      ['field', 'OptionNbboQuote', 'newField'],
      ['field', 'OptionNbboQuote', 'other'],
      ['name', 'SpreadDefinition', 'legs.legSide'],
      ['field', 'SpreadDefinition', 'legs.legNote'],
    ]);
    expect(drift[0]!.message).toBe('field "bidExch" of "OptionNbboQuote" holds the name "MEMX", which the lockfile does not list (at [0].message.bidExch): run `schema-sync pull` to bring the lockfile and types up to date');
  });

  it('a message type the lockfile does not list is left out and reported; drift: "error" makes each finding an issue', () => {
    const text = ANSWER.replace(OK(2), `{ "header": { "mTyp": "NewType" }, "message": {} }, ${OK(3)}`);
    const { records, drift } = api.number.parseRecords(text, { roundInt64: true, onDrift: () => undefined });
    expect(records.map((r) => r.header.mTyp)).toEqual(['OptionNbboQuote', 'SpreadDefinition']);
    expect(drift).toMatchObject([{ kind: 'type', type: 'NewType' }]);
    expect(failure('number', drifted, { roundInt64: true, drift: 'error' }).issues.map((issue) => issue.message)).toEqual([
      '[0].message.bidExch: expected a name of the set, got the string "MEMX"',
      '[0].message.newField: expected no such field, got the string "newField"',
      '[0].message.other: expected no such field, got the string "other"',
      '[1].message.legs[1].legSide: expected a name of the set, got the string "Short"',
      '[1].message.legs[1].legNote: expected no such field, got the string "legNote"',
    ]);
  });
});

/** Type assertions over each int64 setting's output (issue 41 items 6 and 7). */
const TYPES_CONSUMER = ['number', 'bigint', 'string']
  .map(
    (int64) => `
import type * as ${int64} from './${int64}/index.js';
assertType<Equal<${int64}.RecordByName<'QueryResult'>, ${int64}.QueryResultMessage>>();
assertType<Equal<Extract<${int64}.RecordElement | ${int64}.QueryResultElement, { header: { mTyp: 'QueryResult' } }>, ${int64}.QueryResultElement>>();
assertType<Equal<${int64}.QueryResultMessage['numMessagesSent'], number | undefined>>();
// @ts-expect-error a type described with no fields takes no field
export const bare_${int64}: ${int64}.BareRecord = { anything: 1 };
export const empty_${int64}: ${int64}.BareRecord = {};
`,
  )
  .join('');

describe('the types of the records (tsc --strict)', () => {
  it('one QueryResult type under every int64 setting; a type with no fields takes none', async () => {
    await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    await writeFile(
      join(dir, 'consumer.ts'),
      `type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;\nfunction assertType<T extends true>(): T | undefined {\n  return undefined;\n}\n${TYPES_CONSUMER}`,
    );
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: STRICT_CONSUMER, include: ['consumer.ts'] }));
    expect(await runTsc(join(dir, 'tsconfig.json'))).toEqual({ code: 0, output: '' });
  }, 60_000);
});

describe('the records runtime', () => {
  it('compiles alone under the strictest settings a consumer may have, isolatedDeclarations included, with no DOM or Node.js types', async () => {
    const project = join(dir, 'runtime-alone');
    await writeEmitted(project, [{ path: 'records-runtime.ts', text: await readFile(join(REPO_ROOT, 'runtime/records-runtime.ts'), 'utf8') }, { path: 'package.json', text: '{"type":"module"}' }]);
    const compilerOptions = {
      ...STRICT_CONSUMER,
      verbatimModuleSyntax: true,
      isolatedModules: true,
      isolatedDeclarations: true,
      declaration: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      noImplicitOverride: true,
      noImplicitReturns: true,
      noPropertyAccessFromIndexSignature: true,
      erasableSyntaxOnly: true,
      noEmit: true,
    };
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['records-runtime.ts'] }));
    expect(await runTsc(join(project, 'tsconfig.json'))).toEqual({ code: 0, output: '' });
  }, 60_000);

  it('its JavaScript and declarations are what scripts/build-runtime.mjs makes of its source', async () => {
    const source = await readFile(join(REPO_ROOT, 'runtime/records-runtime.ts'), 'utf8');
    const outputs = (await runtimeOutputs(source)) as Record<string, string>;
    for (const [file, text] of Object.entries(outputs)) expect(await readFile(join(REPO_ROOT, 'runtime', file), 'utf8'), file).toBe(text);
  });
});

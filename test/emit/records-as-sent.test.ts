/**
 * Record JSON as the service sends it (the key fields under `pkey`, fields at their default left
 * out, the answer closed by its `QueryResult`) against the generated record types, in both
 * targets, under `strict` and `exactOptionalPropertyTypes` (one tsc run): it type-checks, a
 * consumer narrows an answer's elements by `header.mTyp`, and what the service never sends is
 * refused, each for its own reason.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitFiles } from '../../src/emit/index.js';
import { INT64_TYPES, type Int64Type, type OutputTarget } from '../../src/model/lockfile.js';
import { makeField, type FieldDescriptor } from '../../src/model/field.js';
import type { Descriptor } from '../../src/model/descriptor.js';
import { descriptor, loadExampleDescriptors, makeTempDir, removeTempDir, REPO_ROOT, runTsc, writeEmitted } from './helpers.js';
import { STRICT_CONSUMER as STRICT } from '../helpers/tsc.js';

const field = (name: string, fType: string, more: Partial<FieldDescriptor> = {}): FieldDescriptor => makeField({ name, fType, ...more }, {});

/** Two message types as the vendor's data dictionary describes them. */
const MESSAGES = [
  descriptor({
    name: 'SpreadQuote',
    mNum: 1,
    fields: [
      field('ekey', 'ExpiryKey', { pos: 1, isPkey: true }),
      field('spreadName', 'String', { pos: 2, isPkey: true }),
      field('bidPrice', 'Double', { pos: 3 }),
      field('bidExch', 'Enum', { pos: 4, eSet: ['None', 'CBOE', 'ISE'] }),
      field('srcTimestamp', 'Long', { pos: 5, desc: 'Source timestamp, nanoseconds.' }),
    ],
  }),
  descriptor({
    name: 'StockQuote',
    mNum: 2,
    fields: [
      field('tkey', 'TickerKey', { pos: 1, isPkey: true }),
      field('bidSize', 'Int', { pos: 2 }),
      field('updateTime', 'DateTime', { pos: 3 }),
      field('halt', 'Flag', { pos: 4, eSet: ['None', 'Halted'] }),
    ],
  }),
];

/** The answer of a records query, as the vendor's public samples print it. */
const ANSWER_AS_SENT = `[
  { "header": { "mTyp": "SpreadQuote" },
    "message": { "pkey": { "ekey": { "at": "EQT", "ts": "NMS", "tk": "XYZ", "dt": "2025-01-17" },
                           "spreadName": "A" },
                 "bidPrice": 1.5, "bidExch": "CBOE", "srcTimestamp": 1712345678901234567 } },
  { "header": { "mTyp": "StockQuote" },
    "message": { "pkey": { "tkey": { "at": "EQT", "ts": "NMS", "tk": "XYZ" } },
                 "bidSize": 300, "updateTime": "2025-01-17 15:59:59.123456", "halt": "Halted" } },
  { "header": { "mTyp": "QueryResult" },
    "message": { "numMessagesSent": 2, "queryElapsed": 0.0341, "result": "Ok" } }
]`;

/** A nanosecond timestamp beyond 2^53, as sent, and as each int64 setting's parser gives it. */
const TIMESTAMP = '1712345678901234567';
const AS_PARSED: Readonly<Record<Int64Type, string>> = { number: TIMESTAMP, bigint: `${TIMESTAMP}n`, string: `'${TIMESTAMP}'` };
/** A timestamp of another type than the setting's. */
const OTHER: Readonly<Record<Int64Type, string>> = { number: `'${TIMESTAMP}'`, bigint: '1712345678901234', string: `${TIMESTAMP}n` };

/** A consumer of the output in `folder` (generated with `int64`): records as sent type-check, and what is never sent does not. */
const consumer = (folder: string, int64: Int64Type) => `
import { isElementOf, type QueryResultMessage, type QueryResultElement, type RecordElement, type RecordsResponse, type SpreadQuotePKey, type SpreadQuoteRecord, type StockQuoteRecord } from './${folder}/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | undefined {
  return undefined;
}

export const answer: RecordsResponse = ${ANSWER_AS_SENT.replace(TIMESTAMP, AS_PARSED[int64])};

// Every field but the key may be absent; the key may be absent as a whole; a failed query says why.
export const sparse: RecordsResponse<'SpreadQuote'> = [
  { header: { mTyp: 'SpreadQuote' }, message: {} },
  { header: { mTyp: 'SpreadQuote' }, message: { pkey: { ekey: { at: 'EQT', ts: 'NMS', tk: 'XYZ', dt: '2025-01-17' }, spreadName: 'B' } } },
  { header: { mTyp: 'QueryResult' }, message: { result: 'AuthError', detail: 'invalid key' } },
];
export const empty: RecordsResponse = [{ header: { mTyp: 'QueryResult' }, message: { numMessagesSent: 0, queryElapsed: 0.001, result: 'Ok' } }];

assertType<Equal<RecordElement<'SpreadQuote'>, { header: { mTyp: 'SpreadQuote' }; message: SpreadQuoteRecord }>>();
assertType<Equal<RecordElement, RecordElement<'SpreadQuote'> | RecordElement<'StockQuote'>>>();
assertType<Equal<SpreadQuoteRecord['pkey'], SpreadQuotePKey | undefined>>();
assertType<Equal<SpreadQuoteRecord['srcTimestamp'], ${int64} | undefined>>();
assertType<Equal<StockQuoteRecord['halt'], 'None' | 'Halted' | (string & {}) | undefined>>();

/** Narrowed by header.mTyp: each element's message is its type's record. */
export function bids(response: RecordsResponse): number[] {
  const prices: number[] = [];
  for (const element of response) {
    if (isElementOf(element, 'QueryResult')) {
      const status: QueryResultMessage = element.message;
      if (status.result !== 'Ok') throw new Error(status.detail ?? status.result);
    } else if (isElementOf(element, 'SpreadQuote')) {
      prices.push(element.message.bidPrice ?? 0);
      const spread: string | undefined = element.message.pkey?.spreadName;
      void spread;
    } else {
      const size: number | undefined = element.message.bidSize;
      void size;
    }
  }
  return prices;
}

// @ts-expect-error a misspelt field
export const misspelt: SpreadQuoteRecord = { bidPrise: 1.5 };
// @ts-expect-error not one of the enum values
export const wrongEnum: SpreadQuoteRecord = { bidExch: 'CBOX' };
// @ts-expect-error a key field is under pkey, never beside it
export const keyOutside: SpreadQuoteRecord = { spreadName: 'A' };
// @ts-expect-error a 64-bit field is of the type the int64 setting chose
export const otherInt64: SpreadQuoteRecord = { srcTimestamp: ${OTHER[int64]} };
// @ts-expect-error a key holds all its fields
export const partialKey: SpreadQuoteRecord = { pkey: { spreadName: 'A' } };
// @ts-expect-error an answer ends with its QueryResult
export const noStatus: RecordsResponse = [{ header: { mTyp: 'SpreadQuote' }, message: {} }];
// @ts-expect-error the message is the record of the type the header names
export const mixedUp: RecordElement = { header: { mTyp: 'StockQuote' }, message: { bidPrice: 1 } };
export function askOther(element: RecordElement<'SpreadQuote'> | QueryResultElement): boolean {
  // @ts-expect-error only the types an answer may hold are asked for
  return isElementOf(element, 'StockQuote');
}
`;

/** The refused records without their directives: each error is the one expected. */
const REFUSED = `
import type { SpreadQuoteRecord } from './ts-number/index.js';
export const misspelt: SpreadQuoteRecord = { bidPrise: 1.5 };
export const wrongEnum: SpreadQuoteRecord = { bidExch: 'CBOX' };
export const keyOutside: SpreadQuoteRecord = { spreadName: 'A' };
`;

/** The TypeScript block of docs/record-types.md that types a records answer. */
function readmeExample(marker = 'RecordsResponse'): string {
  const blocks = [...readFileSync(join(REPO_ROOT, 'docs/record-types.md'), 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  return blocks.find((block) => block.includes(marker))!;
}

/** The example listing, each type with its fields from examples/descriptors.schemas.json (none for the others). */
async function exampleWithFields(): Promise<Descriptor[]> {
  const schemas = JSON.parse(readFileSync(join(REPO_ROOT, 'examples/descriptors.schemas.json'), 'utf8')) as Record<string, Record<string, string | number>[]>;
  return (await loadExampleDescriptors()).map((d) => ({
    ...d,
    fields: (schemas[d.name] ?? []).map(({ name, fType, isPkey, inRepeater, eSet, pos }) => {
      return makeField(
        { name: String(name), fType: String(fType), pos: Number(pos), isPkey: isPkey === 'Yes', ...(inRepeater ? { inRepeater: String(inRepeater) } : {}), ...(eSet ? { eSet: String(eSet).split(',') } : {}) },
        {},
      );
    }),
  }));
}


/** Each target with each int64 setting, and the folder of its output. */
const OUTPUTS = (['ts', 'js+dts'] as const).flatMap((target: OutputTarget) => INT64_TYPES.map((int64) => ({ target, int64, folder: `${target === 'ts' ? 'ts' : 'js-dts'}-${int64}` })));

let dir: string;
let compiled: { code: number | null; output: string };

beforeAll(async () => {
  dir = await makeTempDir('records-as-sent');
  for (const { target, int64, folder } of OUTPUTS) {
    await writeEmitted(join(dir, folder), await emitFiles({ messages: MESSAGES, source: { query: {} }, fields: true, target, int64 }));
    await writeFile(join(dir, `consumer-${folder}.ts`), consumer(folder, int64));
  }
  await writeFile(join(dir, 'refused.ts'), REFUSED);
  // The documentation's example, against the example listing's output with the example field descriptors.
  await writeEmitted(join(dir, 'example'), await emitFiles({ messages: await exampleWithFields(), source: { query: {} }, fields: true }));
  await writeFile(join(dir, 'readme-example.ts'), readmeExample().replace("'./src/generated/schema/index.js'", "'./example/index.js'"));
  // The page's example of parseRecords, with the two globals it uses declared (no DOM or Node.js types).
  await writeFile(join(dir, 'parse-example.ts'), readmeExample('parseRecords(').replace("'./src/generated/schema/index.js'", "'./example/index.js'"));
  await writeFile(join(dir, 'globals.d.ts'), 'declare function fetch(url: string): Promise<{ text(): Promise<string> }>;\ndeclare const console: { log(...values: unknown[]): void; warn(...values: unknown[]): void; error(...values: unknown[]): void };\n');
  await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: STRICT, include: ['**/*.ts'] }));
  compiled = await runTsc(join(dir, 'tsconfig.json'));
}, 60_000);
afterAll(() => removeTempDir(dir));

describe('records as the service sends them', () => {
  it('type-check against both targets with each int64 setting (and the examples of docs/record-types.md against the example listing), and what it never sends is refused, each for its reason', () => {
    const errors = compiled.output.trim().split('\n').map((line) => line.replace(/^.*refused\.ts/, 'refused.ts'));
    expect(errors).toEqual([
      expect.stringMatching(/^refused\.ts\(3,46\): error TS2561: Object literal may only specify known properties, but 'bidPrise' does not exist in type 'SpreadQuoteRecord'\. Did you mean to write 'bidPrice'\?$/),
      expect.stringMatching(/^refused\.ts\(4,47\): error TS2322: Type '"CBOX"' is not assignable to type '"None" \| "CBOE" \| "ISE" \| UnknownEnumName'\.$/),
      expect.stringMatching(/^refused\.ts\(5,48\): error TS2353: Object literal may only specify known properties, and 'spreadName' does not exist in type 'SpreadQuoteRecord'\.$/),
    ]);
  });

  it('are told apart at run time by isElementOf, as their header names them (js+dts)', async () => {
    const index = (await import(pathToFileURL(join(dir, 'js-dts-number/index.js')).href)) as { isElementOf(element: unknown, mTyp: string): boolean };
    const answer = JSON.parse(ANSWER_AS_SENT) as unknown[];
    expect(answer.map((element) => ['SpreadQuote', 'StockQuote', 'QueryResult'].filter((mTyp) => index.isElementOf(element, mTyp)))).toEqual([['SpreadQuote'], ['StockQuote'], ['QueryResult']]);
  });
});

describe('the int64 setting', () => {
  it.each(OUTPUTS)('types Long fields as $int64 in the $target target, and says how to read them', async ({ target, int64 }) => {
    const files = await emitFiles({ messages: MESSAGES, source: { query: {} }, fields: true, target, int64 });
    const module = files.find((file) => file.path === (target === 'ts' ? 'messages/SpreadQuote.ts' : 'messages/SpreadQuote.d.ts'))!.text;
    expect(module).toContain(`  srcTimestamp?: ${int64};\n`);
    expect(module).toContain(
      {
        number: '   * `Long`: a 64-bit integer. Values beyond 2^53 (nanosecond timestamps, for one) lose\n   * precision as a JavaScript `number`',
        bigint: '   * `Long`: a 64-bit integer, typed `bigint` (setting int64): read records with a JSON parser\n   * that gives big integers as `bigint`.',
        string: '   * `Long`: a 64-bit integer, typed `string` (setting int64): read records with a JSON parser\n   * that keeps big integers as their digits.',
      }[int64],
    );
  });
});

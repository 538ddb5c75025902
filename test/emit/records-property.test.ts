/**
 * A property of the generated checks, over every message type of the example listing that has
 * field descriptors (examples/descriptors.schemas.json), under int64 bigint: a record drawn from
 * the field table (fast-check), written as the service writes it and read by `parseRecords`,
 * comes back equal; a mutation of one field is caught at its path (a value of the wrong JSON
 * type, a key object left out: an issue; an enum name outside the set: a drift finding).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitFiles } from '../../src/emit/index.js';
import { makeField, sortFields, type FieldDescriptor } from '../../src/model/field.js';
import { descriptor, makeTempDir, removeTempDir, REPO_ROOT, writeEmitted } from './helpers.js';

type Json = Record<string, unknown>;
type Api = {
  safeParseRecords(text: string, options?: object): { success: true; data: { records: { message: Json }[]; drift: { path: unknown[] }[] } } | { success: false; error: { issues: { path: unknown[] }[] } };
};

/** The example's field descriptors as the lockfile records them. */
async function exampleTypes(): Promise<Map<string, FieldDescriptor[]>> {
  const described = JSON.parse(await readFile(join(REPO_ROOT, 'examples/descriptors.schemas.json'), 'utf8')) as Record<string, Json[]>;
  return new Map(
    Object.entries(described).map(([name, fields]) => [
      name,
      sortFields(fields.map((f) => makeField({ name: String(f['name']), pos: Number(f['pos']), fType: String(f['fType']), isPkey: f['isPkey'] === 'Yes', ...(typeof f['inRepeater'] === 'string' && f['inRepeater'] !== '' ? { inRepeater: f['inRepeater'] } : {}), ...(typeof f['eSet'] === 'string' ? { eSet: f['eSet'].split(',') } : {}) }, {}))),
    ]),
  );
}

const text = fc.string({ maxLength: 12 });
const ticker = { at: text, ts: text, tk: text };
const double = fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x));
const int = (min: number, max: number) => fc.integer({ min, max });

/** A value of a field, as its type says (int64 bigint). */
function valueOf(field: FieldDescriptor, groups: Map<string, fc.Arbitrary<Json>>): fc.Arbitrary<unknown> {
  switch (field.fType) {
    case 'Byte': return int(-128, 255);
    case 'Short': return int(-32768, 32767);
    case 'UShort': return int(0, 65535);
    case 'Int': return int(-2147483648, 2147483647);
    case 'UInt': return int(0, 4294967295);
    case 'Long': return fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
    case 'ULong': return fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
    case 'Float':
    case 'Double': return double;
    case 'Enum':
    case 'Flag': return fc.constantFrom(...field.eSet!);
    case 'TimeSpan': return fc.oneof(text, int(0, 1e6));
    case 'TickerKey': return fc.record(ticker);
    case 'ExpiryKey': return fc.record({ ...ticker, dt: text });
    case 'OptionKey': return fc.record({ ...ticker, dt: text, xx: double, cp: fc.constantFrom('Call', 'Put') });
    case 'Repeater': return fc.array(groups.get(field.name)!, { maxLength: 3 });
    default: return text;
  }
}

/** Records of a type: its key fields required under `pkey`, every other field optional. */
function recordOf(fields: readonly FieldDescriptor[]): fc.Arbitrary<Json> {
  const groups = new Map<string, fc.Arbitrary<Json>>();
  for (const group of new Set(fields.map((f) => f.inRepeater).filter((g) => g !== undefined))) {
    groups.set(group, fc.record(Object.fromEntries(fields.filter((f) => f.inRepeater === group).map((f) => [f.name, valueOf(f, groups)])), { requiredKeys: [] }));
  }
  const keys = fields.filter((f) => f.isPkey === true && f.inRepeater === undefined);
  const others = fields.filter((f) => f.isPkey !== true && f.inRepeater === undefined);
  const body = fc.record(Object.fromEntries(others.map((f) => [f.name, valueOf(f, groups)])), { requiredKeys: [] });
  if (keys.length === 0) return body;
  return fc.tuple(fc.record(Object.fromEntries(keys.map((f) => [f.name, valueOf(f, groups)]))), body).map(([pkey, rest]) => ({ pkey, ...rest }));
}

/** A record element in an answer, as the service writes it: bigints as bare digits. */
function answerOf(type: string, record: Json): string {
  const element = JSON.stringify({ header: { mTyp: type }, message: record }, (_key, value: unknown) => (typeof value === 'bigint' ? `\u0001${value}\u0001` : value));
  return `[${element.replace(/"\\u0001(-?\d+)\\u0001"/g, '$1')},{"header":{"mTyp":"QueryResult"},"message":{"numMessagesSent":1,"result":"Ok"}}]`;
}

/** A value of the wrong JSON type for a field. */
function wrongFor(field: FieldDescriptor): unknown {
  if (field.fType === 'TimeSpan') return true;
  return ['String', 'Text1', 'Text2', 'DateKey', 'DateTime', 'Enum', 'Flag', 'TickerKey', 'ExpiryKey', 'OptionKey', 'Repeater'].includes(field.fType!) ? 5 : 'x';
}

let dir: string;
let api: Api;
let types: Map<string, FieldDescriptor[]>;

beforeAll(async () => {
  dir = await makeTempDir('records-property');
  types = await exampleTypes();
  const messages = [...types].map(([name, fields], i) => descriptor({ name, mNum: 100 + i, fields }));
  await writeEmitted(dir, await emitFiles({ messages, source: { query: {} }, fields: true, int64: 'bigint', target: 'js+dts' }));
  api = (await import(pathToFileURL(join(dir, 'index.js')).href)) as Api;
}, 60_000);
afterAll(() => removeTempDir(dir));

describe('the generated checks, for every type of the example listing with fields', () => {
  it('read back every record written as the service writes it', () => {
    expect(types.size).toBe(5);
    for (const [type, fields] of types) {
      fc.assert(
        fc.property(recordOf(fields), (record) => {
          const parsed = api.safeParseRecords(answerOf(type, record));
          expect(parsed).toEqual({ success: true, data: { records: [{ header: { mTyp: type }, message: record }], result: expect.anything(), drift: [] } });
        }),
        { numRuns: 60 },
      );
    }
  });

  it('catch a one-field mutation at its path: a wrong JSON type, a name outside the set (drift), a key object left out', () => {
    for (const [type, fields] of types) {
      const top = fields.filter((f) => f.inRepeater === undefined);
      fc.assert(
        fc.property(recordOf(fields), fc.constantFrom(...top), (record, field) => {
          const mutated = structuredClone(record);
          const where = field.isPkey === true ? (mutated['pkey'] as Json) : mutated;
          const path = field.isPkey === true ? [0, 'message', 'pkey', field.name] : [0, 'message', field.name];
          where[field.name] = wrongFor(field);
          const wrong = api.safeParseRecords(answerOf(type, mutated));
          expect(!wrong.success && wrong.error.issues.map((issue) => issue.path)).toEqual([path]);
          if (field.fType === 'Enum') {
            where[field.name] = 'NotInTheSet';
            const drift = api.safeParseRecords(answerOf(type, mutated), { onDrift: () => undefined });
            expect(drift.success && drift.data.drift.map((finding) => finding.path)).toEqual([path]);
          }
          if (field.isPkey === true && ['TickerKey', 'ExpiryKey', 'OptionKey'].includes(field.fType!)) {
            delete where[field.name];
            const removed = api.safeParseRecords(answerOf(type, mutated));
            expect(!removed.success && removed.error.issues.map((issue) => issue.path)).toEqual([path]);
          }
        }),
        { numRuns: 60 },
      );
    }
  });
});

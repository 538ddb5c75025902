/**
 * The check table the emitter writes for the records runtime: its field kinds are the runtime's,
 * and a key field the service leaves out at its default value gets that default as each int64
 * setting types it.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD } from '../../src/emit/check-table.js';
import { emitFiles } from '../../src/emit/index.js';
import { makeField } from '../../src/model/field.js';
import type { Int64Type } from '../../src/model/lockfile.js';
import * as runtime from '../../runtime/records-runtime.js';
import { descriptor, makeTempDir, removeTempDir, writeEmitted } from './helpers.js';

/** A type whose key is a ticker and a 64-bit sequence number. */
const SEQUENCED = descriptor({
  name: 'Sequenced',
  mNum: 41,
  fields: [makeField({ name: 'ticker', fType: 'TickerKey', pos: 1, isPkey: true }, {}), makeField({ name: 'seq', fType: 'Long', pos: 2, isPkey: true }, {}), makeField({ name: 'size', fType: 'Int', pos: 3 }, {})],
});

type Api = { recordSchemas: Record<string, { parse(value: unknown): { pkey: Record<string, unknown> } }> };

let dir: string;
const api = {} as Record<Int64Type, Api>;

beforeAll(async () => {
  dir = await makeTempDir('check-table');
  for (const int64 of ['number', 'bigint', 'string'] as const) {
    await writeEmitted(join(dir, int64), await emitFiles({ messages: [SEQUENCED], source: { query: {} }, fields: true, int64, target: 'js+dts' }));
    api[int64] = (await import(pathToFileURL(join(dir, int64, 'index.js')).href)) as Api;
  }
}, 60_000);
afterAll(() => removeTempDir(dir));

describe('the check table the emitter writes', () => {
  it('names the field kinds as the records runtime reads them (its FIELD, of which src/emit/check-table.ts is a copy)', () => {
    expect(FIELD).toEqual(runtime.FIELD);
  });

  it('gives a Long key field left out its default as the int64 setting types it: 0, 0n, "0"', () => {
    const ticker = { at: 'EQT', ts: 'NMS', tk: 'AAPL' };
    const want = { number: 0, bigint: 0n, string: '0' } as const;
    for (const int64 of ['number', 'bigint', 'string'] as const) {
      expect(api[int64].recordSchemas['Sequenced']!.parse({ pkey: { ticker }, size: 1 }).pkey, int64).toEqual({ ticker, seq: want[int64] });
    }
  });
});

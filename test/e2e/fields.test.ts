/**
 * Field-level record types end to end: the CLI (run in this process, see
 * test/helpers/in-process.ts) against the reference server, counting the
 * getschema requests each pull makes.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SchemaSet } from '../../src/server/index.js';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { runTsc } from '../emit/helpers.js';
import { readTree, removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { smallListing, wireElement, type WireElement } from '../helpers/listing.js';
import { STRICT_CONSUMER as STRICT } from '../helpers/tsc.js';

/** Field descriptors of the four types of smallListing(4), as a real server writes them. */
const SCHEMAS: SchemaSet = {
  T0000: [
    { pos: 1, name: 'ticker', fNum: 10, isPkey: 'Yes', fType: 'TickerKey', desc: 'The stock.' },
    { pos: 2, name: 'bidExch', fNum: 11, isPkey: 'No', fType: 'Enum', eSet: 'None,NYSE,NSDQ', desc: 'Exchange with the best bid.' },
    { pos: 3, name: 'bidSize', fNum: 12, isPkey: 'No', fType: 'Int' },
    { pos: 4, name: 'srcTimestamp', fNum: 13, isPkey: 'No', fType: 'Long', jsonEncType: 'Number' },
  ],
  T0001: [
    { pos: 1, name: 'okey', fNum: 10, isPkey: 'Yes', fType: 'FIELDTYPE_OPTIONKEY' },
    { pos: 2, name: 'legs', fNum: 11, fType: 21 },
    { pos: 3, name: 'legRatio', fNum: 12, fType: 'int', inRepeater: 'legs' },
  ],
  T0002: [{ pos: 1, name: 'ekey', fNum: 10, isPkey: true, fType: 'ExpiryKey' }],
  T0003: [{ pos: 1, name: 'tradeDate', fNum: 10, isPkey: 'yes', fType: 'DateKey' }],
};

/** A consumer's view of the generated records: a key object, an enum name, omitted fields, a repeating group. */
const CONSUMER = `
import type { RecordByName, T0000PKey, T0000Record, T0001Record, UnknownEnumName } from './out/index.js';

export const quote: T0000Record = { pkey: { ticker: { at: 'EQT', ts: 'NMS', tk: 'AAPL' } }, bidExch: 'NYSE', bidSize: 300 };
export const key: T0000PKey = { ticker: { at: 'EQT', ts: 'NMS', tk: 'AAPL' } };
export const spread: T0001Record = {
  pkey: { okey: { at: 'EQT', ts: 'NMS', tk: 'SPY', dt: '2024-03-15', xx: 510, cp: 'Call' } },
  legs: [{ legRatio: 1 }, {}],
};
export const viaName: RecordByName<'T0003'> = { pkey: { tradeDate: '2024-03-15' } };
export const exchange: 'None' | 'NYSE' | 'NSDQ' | 'ARCA' | UnknownEnumName | undefined = quote.bidExch;
`;

const MISSPELT = `
import type { T0000Record } from './out/index.js';
export const misspelt: T0000Record = { bidExch: 'NYSe' };
`;


let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startTestServer({ listing: smallListing(4), schemas: SCHEMAS });
  dir = await tempDir();
});
afterAll(async () => {
  await server.close();
  await removeDir(dir);
});

/** Runs a pull with a JSON report and counts the getschema requests it made. */
async function pull(...args: string[]) {
  server.requests.length = 0;
  const format = args.includes('--format') ? [] : ['--format', 'json'];
  const run = await runCli(['pull', '--base-url', server.url, '--out', 'out', ...format, ...args], { cwd: dir });
  return { ...run, requests: server.schemaRequests(), report: format.length === 0 || run.stdout === '' ? undefined : JSON.parse(run.stdout) };
}

const lockfile = async () => JSON.parse(await readFile(join(dir, 'schema-sync.lock.json'), 'utf8'));

/** What the server serves now: each test changes it further. */
let listing = smallListing(4);
let schemas: SchemaSet = SCHEMAS;

/** Serves changed schemas and one changed listing element from the next request on. */
function serve(changed: SchemaSet, [index, element]: [number, WireElement]): void {
  listing = listing.map((old, i) => (i === index ? element : old));
  schemas = { ...schemas, ...changed };
  server.setOptions({ listing, schemas });
}

describe('pull --fields', () => {
  it('first pull: one getschema request per type; fields and the setting recorded in the lockfile', async () => {
    const run = await pull('--fields');
    expect(run.code, run.stderr).toBe(0);
    expect(run.requests).toEqual({ T0000: 1, T0001: 1, T0002: 1, T0003: 1 });
    const lock = await lockfile();
    expect(lock.settings).toEqual({ fields: true });
    expect(lock.messages.T0000.$fields).toEqual([
      { name: 'ticker', pos: 1, fNum: 10, fType: 'TickerKey', isPkey: true, desc: 'The stock.' },
      { name: 'bidExch', pos: 2, fNum: 11, fType: 'Enum', isPkey: false, eSet: ['None', 'NYSE', 'NSDQ'], desc: 'Exchange with the best bid.' },
      { name: 'bidSize', pos: 3, fNum: 12, fType: 'Int', isPkey: false },
      { name: 'srcTimestamp', pos: 4, fNum: 13, fType: 'Long', isPkey: false, jsonEncType: 'Number' },
    ]);
    expect(lock.messages.T0001.$fields.map((field: { fType: string }) => field.fType)).toEqual(['OptionKey', 'Repeater', 'Int']);
    const module = await readFile(join(dir, 'out/messages/T0000.ts'), 'utf8');
    expect(module).toContain('export interface T0000Record {');
    expect(module).toContain("  bidExch?: 'None' | 'NYSE' | 'NSDQ' | UnknownEnumName;");
    expect(module).toContain('export interface T0000PKey {\n  /** The stock. */\n  ticker: TickerKey;\n}');
  });

  it('no-op pull: zero getschema requests, with and without the caches', async () => {
    const before = await readFile(join(dir, 'schema-sync.lock.json'), 'utf8');
    for (const env of [{}, { SCHEMA_SYNC_CACHE_DIR: 'off' }]) {
      server.requests.length = 0;
      const run = await runCli(['pull', '--base-url', server.url, '--out', 'out'], { cwd: dir, env });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('no changes · 0 files written');
      expect(server.schemaRequests()).toEqual({});
    }
    expect(await readFile(join(dir, 'schema-sync.lock.json'), 'utf8')).toBe(before);
  });

  it('one hash changed: exactly one request; a removed field and an added enum value reported with rule ids and severities, by check and pull', async () => {
    // T0000: srcTimestamp removed, bidExch gains ARCA.
    const fields = SCHEMAS['T0000']!.filter((field) => (field as { name: string }).name !== 'srcTimestamp').map((field) =>
      (field as { name: string }).name === 'bidExch' ? { ...(field as object), eSet: 'None,NYSE,NSDQ,ARCA' } : field,
    );
    serve({ T0000: fields }, [0, wireElement({ name: 'T0000', mNum: 1000, schemaHash: 'H0-new' })]);
    server.requests.length = 0;
    const check = await runCli(['check', '--base-url', server.url, '--out', 'out', '--fail-on', 'breaking'], { cwd: dir });
    expect(check.code).toBe(1);
    expect(server.schemaRequests()).toEqual({ T0000: 1 });
    expect(check.stdout).toContain('    fields.bidExch.eSet: (absent) → "ARCA" [RECORD_ENUM_VALUE_ADDED] (safe)\n    fields.srcTimestamp: "Long" → (absent) [RECORD_FIELD_REMOVED]');
    const run = await pull();
    expect(run.code, run.stderr).toBe(0);
    expect(run.requests).toEqual({ T0000: 1 });
    expect(run.report.changes).toEqual([
      {
        kind: 'changed',
        name: 'T0000',
        rule: 'RECORD_FIELD_REMOVED',
        severity: 'breaking',
        fields: [
          { field: 'schemaHash', before: 'H0', after: 'H0-new', severity: 'dangerous', rule: 'SCHEMA_HASH_CHANGED' },
          { field: 'fields.bidExch.eSet', after: 'ARCA', severity: 'safe', rule: 'RECORD_ENUM_VALUE_ADDED' },
          { field: 'fields.srcTimestamp', before: 'Long', severity: 'breaking', rule: 'RECORD_FIELD_REMOVED' },
        ],
      },
    ]);
    const module = await readFile(join(dir, 'out/messages/T0000.ts'), 'utf8');
    expect(module).toContain("  bidExch?: 'None' | 'NYSE' | 'NSDQ' | 'ARCA' | UnknownEnumName;");
    expect(module).not.toContain('srcTimestamp');
  });

  it('a hash changed with identical fields: one request, reported as hash changed, fields unchanged', async () => {
    serve({}, [3, wireElement({ name: 'T0003', mNum: 1003, schemaHash: 'H3-new' })]);
    const run = await pull('--format', 'text');
    expect(run.code, run.stderr).toBe(0);
    expect(run.requests).toEqual({ T0003: 1 });
    expect(run.stdout).toBe(
      [
        'Dangerous',
        '  changed T0003',
        '    schemaHash: "H3" → "H3-new" [SCHEMA_HASH_CHANGED]',
        '    fields: hash changed, fields unchanged (no field, type, key or visible enum value differs; an enum or flag may have gained a value this key does not see) [RECORD_FIELDS_UNCHANGED] (safe)',
        '',
        'Changed: 1 message type (0 breaking, 1 dangerous, 0 safe)',
        '',
      ].join('\n'),
    );
  });

  it('a failing getschema fails the pull and changes nothing', async () => {
    const lockBefore = await readFile(join(dir, 'schema-sync.lock.json'), 'utf8');
    const treeBefore = await readTree(join(dir, 'out'));
    serve({ T0002: [{ name: 'ekey', fNum: 'ten' }] }, [2, wireElement({ name: 'T0002', mNum: 1002, schemaHash: 'H2-new' })]);
    const run = await pull();
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('msgType=T0002: 1 invalid field in the field descriptors of "T0002":\n  element 0 ("ekey"), field message.fNum: expected a non-negative integer, got "ten"');
    expect(run.requests).toEqual({ T0002: 1 });
    expect(await readFile(join(dir, 'schema-sync.lock.json'), 'utf8')).toBe(lockBefore);
    expect(await readTree(join(dir, 'out'))).toEqual(treeBefore);
    serve({ T0002: SCHEMAS['T0002']! }, [2, wireElement({ name: 'T0002', mNum: 1002, schemaHash: 'H2' })]);
  });

  it('the record types compile under tsc --strict; a realistic record assigns, a misspelt enum value does not', { timeout: 60_000 }, async () => {
    await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    await writeFile(join(dir, 'consumer.ts'), CONSUMER);
    await writeFile(join(dir, 'misspelt.ts'), MISSPELT);
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: STRICT, include: ['consumer.ts', 'misspelt.ts', 'out/**/*.ts'] }));
    const { code, output } = await runTsc(join(dir, 'tsconfig.json'));
    // One error, the misspelt value; the consumer and the generated folder compile clean.
    expect(output.trim().split('\n')).toEqual([expect.stringMatching(/misspelt\.ts\(3,40\): error TS2820: Type '"NYSe"' is not assignable to type 'UnknownEnumName \| "None" \| "NYSE" \| "NSDQ" \| "ARCA"'\. Did you mean '"NYSE"'\?$/)]);
    expect(code).toBe(2);
  });

  it('--input reads only the listing: with fields on, the types it changes need --base-url', async () => {
    await writeFile(join(dir, 'saved.json'), JSON.stringify(listing.map((element, i) => (i === 1 ? wireElement({ name: 'T0001', mNum: 1001, schemaHash: 'H1-new' }) : element))));
    const run = await runCli(['pull', '--input', 'saved.json', '--out', 'out'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('fields are on, and 1 message type needs its field descriptors from the service, but there is no base URL');
    expect(run.stderr).toContain('no config file found (searched ');
    expect(run.stderr).toContain('--no-fields');
  });

  it('--no-fields drops the fields and the setting, without a request', async () => {
    const run = await pull('--no-fields');
    expect(run.code, run.stderr).toBe(0);
    expect(run.requests).toEqual({});
    const lock = await lockfile();
    expect(lock.settings).toEqual({});
    expect(lock.messages.T0000.$fields).toBeUndefined();
    expect(await readFile(join(dir, 'out/messages/T0000.ts'), 'utf8')).not.toContain('Record');
    // generate cannot fetch what the lockfile does not record.
    const generate = await runCli(['generate', '--out', 'out', '--fields'], { cwd: dir });
    expect(generate.code).toBe(2);
    expect(generate.stderr).toContain('fields are on, but the lockfile records no field descriptors for 4 message types ("T0000", "T0001", "T0002", "T0003")');
    expect(generate.stderr).toContain('schema-sync pull --fields');
  });

  it('with include/exclude, only the types in scope are asked for their fields; generate and check need no others', async () => {
    await writeFile(join(dir, 'schema-sync.config.json'), JSON.stringify({ include: ['T000*'], exclude: ['T0000', 'T0002'] }));
    try {
      const run = await pull('--fields');
      expect(run.code, run.stderr).toBe(0);
      expect(run.requests).toEqual({ T0001: 1, T0003: 1 });
      const lock = await lockfile();
      expect(lock.messages.T0000.$fields).toBeUndefined();
      expect(lock.messages.T0001.$fields.map((field: { fType: string }) => field.fType)).toEqual(['OptionKey', 'Repeater', 'Int']);
      await rm(join(dir, 'out'), { recursive: true });
      const generate = await runCli(['generate', '--out', 'out'], { cwd: dir });
      expect(generate.code, generate.stderr).toBe(0);
      expect(await readFile(join(dir, 'out/messages/T0001.ts'), 'utf8')).toContain('export interface T0001Record {');
      const check = await runCli(['check', '--base-url', server.url, '--out', 'out'], { cwd: dir });
      expect(check.code, check.stderr).toBe(0);
    } finally {
      await rm(join(dir, 'schema-sync.config.json'));
    }
  });

  it('--int64 types the 64-bit fields: recorded, applied by generate to their modules only, and a setting check reports when it differs', async () => {
    serve({ T0000: SCHEMAS['T0000']! }, [0, wireElement({ name: 'T0000', mNum: 1000, schemaHash: 'H0-again' })]);
    // The scope of the test before cleared.
    await writeFile(join(dir, 'schema-sync.config.json'), JSON.stringify({ include: [], exclude: [] }));
    const run = await pull('--fields', '--int64', 'bigint');
    await rm(join(dir, 'schema-sync.config.json'));
    expect(run.code, run.stderr).toBe(0);
    expect((await lockfile()).settings).toEqual({ fields: true, int64: 'bigint' });
    expect(await readFile(join(dir, 'out/messages/T0000.ts'), 'utf8')).toContain('  srcTimestamp?: bigint;\n');
    expect((await runCli(['check', '--base-url', server.url, '--out', 'out'], { cwd: dir })).code).toBe(0);

    const differs = await runCli(['check', '--base-url', server.url, '--out', 'out', '--int64', 'string'], { cwd: dir });
    expect(differs.code).toBe(1);
    expect(differs.stdout).toContain('Settings differ (lockfile → given)\n  int64: "bigint" → "string"');

    const generate = await runCli(['generate', '--out', 'out', '--int64', 'number'], { cwd: dir });
    expect(generate.code, generate.stderr).toBe(0);
    // Only the module with a 64-bit field (T0000) is rewritten.
    expect(generate.stderr).toMatch(/ 1 files? written, 0 deleted/);
    expect((await lockfile()).settings).toEqual({ fields: true });
    expect(await readFile(join(dir, 'out/messages/T0000.ts'), 'utf8')).toContain('  srcTimestamp?: number;\n');

    const unknown = await runCli(['generate', '--out', 'out', '--int64', 'bignum'], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('bignum');
  });
});

/**
 * Field-level record types end to end: the built CLI against the reference server, counting the
 * getschema requests each pull makes.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer, type SchemaSet } from '../../src/server/index.js';
import { readTree, removeDir, runBin, tempDir } from '../helpers/cli.js';
import { smallListing, wireElement, type WireElement } from '../helpers/listing.js';

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

let server: ReferenceServer;
let dir: string;

beforeAll(async () => {
  server = await startReferenceServer({ listing: smallListing(4), schemas: SCHEMAS });
  dir = await tempDir();
});
afterAll(async () => {
  await server.close();
  await removeDir(dir);
});

/** Runs a pull with a JSON report and counts the getschema requests it made. */
async function pull(...args: string[]) {
  server.requests.length = 0;
  const run = await runBin(['pull', '--base-url', server.url, '--out', 'out', '--format', 'json', ...args], { cwd: dir });
  return { ...run, requests: server.schemaRequests(), report: run.stdout === '' ? undefined : JSON.parse(run.stdout) };
}

const lockfile = async () => JSON.parse(await readFile(join(dir, 'schema-sync.lock.json'), 'utf8'));

/** smallListing(4) with one element replaced. */
function listingWith(index: number, element: WireElement): WireElement[] {
  return smallListing(4).map((old, i) => (i === index ? element : old));
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
    expect(module).toContain("  bidExch?: 'None' | 'NYSE' | 'NSDQ';");
    expect(module).toContain('export interface T0000PKey {\n  /** The stock. */\n  ticker: TickerKey;\n}');
  });

  it('no-op pull: zero getschema requests, with and without the caches', async () => {
    const before = await readFile(join(dir, 'schema-sync.lock.json'), 'utf8');
    for (const env of [{}, { SCHEMA_SYNC_CACHE_DIR: 'off' }]) {
      server.requests.length = 0;
      const run = await runBin(['pull', '--base-url', server.url, '--out', 'out'], { cwd: dir, env });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('no changes · 0 files written');
      expect(server.schemaRequests()).toEqual({});
    }
    expect(await readFile(join(dir, 'schema-sync.lock.json'), 'utf8')).toBe(before);
  });

  it('a failing getschema fails the pull and changes nothing', async () => {
    const lockBefore = await readFile(join(dir, 'schema-sync.lock.json'), 'utf8');
    const treeBefore = await readTree(join(dir, 'out'));
    server.setOptions({ listing: listingWith(2, wireElement({ name: 'T0002', mNum: 1002, schemaHash: 'H2-new' })), schemas: { ...SCHEMAS, T0002: [{ name: 'ekey', fNum: 'ten' }] } });
    const run = await pull();
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('msgType=T0002: 1 invalid field in the field descriptors of "T0002":\n  element 0 ("ekey"), field message.fNum: expected a non-negative integer, got "ten"');
    expect(run.requests).toEqual({ T0002: 1 });
    expect(await readFile(join(dir, 'schema-sync.lock.json'), 'utf8')).toBe(lockBefore);
    expect(await readTree(join(dir, 'out'))).toEqual(treeBefore);
    server.setOptions({ listing: smallListing(4), schemas: SCHEMAS });
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
    const generate = await runBin(['generate', '--out', 'out', '--fields'], { cwd: dir });
    expect(generate.code).toBe(2);
    expect(generate.stderr).toContain('fields are on, but the lockfile records no field descriptors for 4 message types ("T0000", "T0001", "T0002", "T0003")');
    expect(generate.stderr).toContain('schema-sync pull --fields');
  });
});

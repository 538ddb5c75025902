import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { check, pull } from '../../src/index.js';
import { openIncremental } from '../../src/incremental/index.js';
import { openStatCache } from '../../src/incremental/stat-cache.js';
import { hashOf } from '../../src/util/hash.js';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { exampleListing } from '../helpers/listing.js';

/** A clock a second ahead of the file system's: every hash it times is clearly after the file's last change. */
const later = () => Date.now() + 1000;
/** A clock at the file system's time: every hash it times is racy (within the timestamp granularity). */
const now = () => Date.now();

let dir: string;
let cacheFile: string;
const onDisk = (path: string) => join(dir, path);
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'schema-sync-stat-cache-'));
  cacheFile = join(dir, 'stat.tsv');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes files and a stat cache that has verified them with `clock`, for a manifest `m1`. */
async function verified(files: Record<string, string>, clock: () => number): Promise<Map<string, { sha: string }>> {
  const manifest = new Map<string, { sha: string }>();
  for (const [path, text] of Object.entries(files)) {
    await writeFile(onDisk(path), text);
    manifest.set(path, { sha: hashOf(text) });
  }
  const cache = openStatCache(cacheFile, clock);
  for (const [path, { sha }] of manifest) expect(cache.holds(path, onDisk(path), sha)).toBe(true);
  cache.save('m1', manifest);
  return manifest;
}

describe('stat cache', () => {
  it('vouches for a file by its stat only when it was hashed clearly after its last change', async () => {
    await verified({ 'a.ts': 'export const a = 1;\n' }, now);
    // Racy: the hash was taken within the timestamp granularity, so the bytes are read again.
    await writeFile(cacheFile, (await readFile(cacheFile, 'utf8')).replace(/\t\d+(\.\d+)?\n$/, '\t0\n'));
    const racy = openStatCache(cacheFile, later);
    expect(racy.holds('a.ts', onDisk('a.ts'), hashOf('other'))).toBe(false);
    await verified({ 'a.ts': 'export const a = 1;\n' }, later);
    // Not racy: the stat alone vouches, so even a wrong hash would be taken from the entry.
    const trusted = openStatCache(cacheFile, later);
    expect(trusted.holds('a.ts', onDisk('a.ts'), hashOf('export const a = 1;\n'))).toBe(true);
    expect(trusted.unchangedSince('m1', onDisk)).toBe(1);
  });

  it('sees an edit that keeps the size and puts the mtime back', async () => {
    await verified({ 'a.ts': 'export const a = 1;\n' }, later);
    const before = await stat(onDisk('a.ts'));
    await writeFile(onDisk('a.ts'), 'export const a = 2;\n');
    await utimes(onDisk('a.ts'), before.atimeMs / 1000, before.mtimeMs / 1000);
    expect(Math.abs((await stat(onDisk('a.ts'))).mtimeMs - before.mtimeMs)).toBeLessThan(1);
    const cache = openStatCache(cacheFile, later);
    expect(cache.unchangedSince('m1', onDisk)).toBeUndefined();
    expect(cache.holds('a.ts', onDisk('a.ts'), hashOf('export const a = 1;\n'))).toBe(false);
  });

  it('names a manifest all of whose files it has verified, until one of them changes', async () => {
    await verified({ 'a.ts': 'a\n', 'b.ts': 'b\n' }, later);
    const reopened = () => openStatCache(cacheFile, later);
    expect(reopened().unchangedSince('m1', onDisk)).toBe(2);
    expect(reopened().unchangedSince('m2', onDisk)).toBeUndefined();
    // A file whose stat must not be trusted (a pending interrupted run writes it).
    expect(reopened().unchangedSince('m1', (path) => (path === 'b.ts' ? undefined : onDisk(path)))).toBeUndefined();
    await writeFile(onDisk('b.ts'), 'B\n');
    expect(reopened().unchangedSince('m1', onDisk)).toBeUndefined();
  });

  it('names no manifest with a file it has not verified, or verified with another hash', async () => {
    const manifest = await verified({ 'a.ts': 'a\n' }, later);
    const cache = openStatCache(cacheFile, later);
    cache.save('m2', new Map([...manifest, ['b.ts', { sha: hashOf('b\n') }]]));
    expect(openStatCache(cacheFile, later).unchangedSince('m2', onDisk)).toBeUndefined();
    cache.save('m3', new Map([['a.ts', { sha: hashOf('A\n') }]]));
    expect(openStatCache(cacheFile, later).unchangedSince('m3', onDisk)).toBeUndefined();
  });

  it('a file with no entry (written since) is hashed, then vouched for; a later edit is seen', async () => {
    await verified({ 'old.ts': 'old\n' }, later);
    await writeFile(onDisk('new.ts'), 'new\n');
    const manifest = new Map([['old.ts', { sha: hashOf('old\n') }], ['new.ts', { sha: hashOf('new\n') }]]);
    const cache = openStatCache(cacheFile, later);
    cache.save('m2', manifest);
    expect(openStatCache(cacheFile, later).unchangedSince('m2', onDisk)).toBeUndefined();
    // The bytes of a file with no entry must hash to what the manifest records.
    const wrong = openStatCache(cacheFile, later);
    expect(wrong.holds('new.ts', onDisk('new.ts'), hashOf('other\n'))).toBe(false);
    wrong.save('m2', manifest);
    expect(openStatCache(cacheFile, later).unchangedSince('m2', onDisk)).toBeUndefined();
    const again = openStatCache(cacheFile, later);
    expect(again.holds('new.ts', onDisk('new.ts'), hashOf('new\n'))).toBe(true);
    again.save('m2', manifest);
    expect(openStatCache(cacheFile, later).unchangedSince('m2', onDisk)).toBe(2);
    await writeFile(onDisk('new.ts'), 'NEW\n');
    expect(openStatCache(cacheFile, later).unchangedSince('m2', onDisk)).toBeUndefined();
  });

  it('without a cache folder (the plain path) remembers nothing and writes nothing', async () => {
    await writeFile(onDisk('a.ts'), 'x');
    const plain = openIncremental(dir, undefined, later);
    // It knows nothing: the caller reads and hashes the file.
    expect(plain.holds('a.ts', onDisk('a.ts'), hashOf('x'))).toBeUndefined();
    plain.remember({ output: { planKey: 'plan', manifestHash: 'm1' }, folder: { manifestHash: 'm1', files: new Map([['a.ts', { input: 'i', sha: hashOf('x') }]]) } });
    expect(plain.freshOutput({ planKey: 'plan', manifestHash: 'm1' }, onDisk)).toBeUndefined();
    expect(await readdir(dir)).toEqual(['a.ts']);
  });

  it('ignores a damaged cache file', async () => {
    await verified({ 'a.ts': 'x' }, later);
    await writeFile(cacheFile, 'garbage\tgarbage\n');
    expect(openStatCache(cacheFile, later).unchangedSince('m1', onDisk)).toBeUndefined();
    await writeFile(cacheFile, 'schema-sync stat cache 2\nm1\na.ts\tgarbage\n');
    expect(openStatCache(cacheFile, later).unchangedSince('m1', onDisk)).toBeUndefined();
  });
});

describe('check with the stat cache', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer({ listing: exampleListing() });
  });
  afterEach(async () => {
    await server.close();
  });

  it('reports a hand-edit made after a cached, clean check, even with the mtime put back', async () => {
    const options = { cwd: dir, baseUrl: server.url, out: 'out', cacheDir: join(dir, 'cache'), clock: later };
    await pull(options);
    expect((await check(options)).report.inSync).toBe(true); // hashes the files, fills the cache
    expect((await check(options)).report.inSync).toBe(true); // trusts the cache
    const file = join(dir, 'out/messages/AltSymbolMap.ts');
    const before = await stat(file);
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('AltSymbolMap', 'AltSymbolMaq'));
    await utimes(file, before.atimeMs / 1000, before.mtimeMs / 1000);
    const result = await check(options);
    expect(result.report.staleFiles).toEqual([{ path: 'messages/AltSymbolMap.ts', reason: 'modified' }]);
  });
});

import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { check, pull } from '../../src/index.js';
import { startReferenceServer, type ReferenceServer } from '../../src/server/index.js';
import { hashBytes } from '../../src/write/freshness.js';
import { openStatCache } from '../../src/write/stat-cache.js';
import { exampleListing } from '../helpers/listing.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'schema-sync-stat-cache-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('stat cache', () => {
  it('vouches for a file only when it was verified clearly after its last change', async () => {
    const file = join(dir, 'a.ts');
    await writeFile(file, 'export const a = 1;\n');
    const cache = openStatCache(join(dir, 'out'), join(dir, 'cache'));
    // Hashed right as it was written: a change in the same clock tick could keep the mtime.
    cache.record('a.ts', await stat(file), 'sha-a', Date.now());
    expect(cache.lookup('a.ts', await stat(file))).toBeUndefined();
    await pause(150);
    cache.record('a.ts', await stat(file), 'sha-a', Date.now());
    expect(cache.lookup('a.ts', await stat(file))).toBe('sha-a');
    cache.save();
    expect(openStatCache(join(dir, 'out'), join(dir, 'cache')).lookup('a.ts', await stat(file))).toBe('sha-a');
  });

  it('sees an edit that keeps the size and puts the mtime back', async () => {
    const file = join(dir, 'a.ts');
    await writeFile(file, 'export const a = 1;\n');
    await pause(150);
    const cache = openStatCache(join(dir, 'out'), join(dir, 'cache'));
    const before = await stat(file);
    cache.record('a.ts', before, 'sha-a', Date.now());
    await pause(20);
    await writeFile(file, 'export const a = 2;\n');
    await utimes(file, before.atimeMs / 1000, before.mtimeMs / 1000);
    const after = await stat(file);
    expect(Math.abs(after.mtimeMs - before.mtimeMs)).toBeLessThan(1);
    expect(cache.lookup('a.ts', after)).toBeUndefined();
  });

  it('a snapshot vouches for a set of files until one of them changes', async () => {
    const files = ['a.ts', 'b.ts'];
    for (const name of files) await writeFile(join(dir, name), `export const ${name[0]} = 1;\n`);
    await pause(150);
    const cache = openStatCache(join(dir, 'out'), join(dir, 'cache'));
    for (const name of files) cache.record(name, await stat(join(dir, name)), `sha-${name}`, Date.now());
    cache.snapshot('manifest-1', files);
    const onDisk = (path: string) => join(dir, path);
    const reopened = openStatCache(join(dir, 'out'), join(dir, 'cache'));
    expect(reopened.unchangedSince('manifest-1', onDisk)).toBe(2);
    expect(reopened.unchangedSince('manifest-2', onDisk)).toBeUndefined();
    expect(reopened.unchangedSince('manifest-1', (path) => (path === 'b.ts' ? undefined : onDisk(path)))).toBeUndefined();
    await pause(20);
    await writeFile(join(dir, 'b.ts'), 'export const b = 2;\n');
    expect(reopened.unchangedSince('manifest-1', onDisk)).toBeUndefined();
  });

  it('takes no snapshot when a file could not be vouched for (just written)', async () => {
    await writeFile(join(dir, 'a.ts'), 'x');
    const cache = openStatCache(join(dir, 'out'), join(dir, 'cache'));
    cache.record('a.ts', await stat(join(dir, 'a.ts')), 'sha', Date.now());
    cache.snapshot('manifest-1', ['a.ts']);
    expect(openStatCache(join(dir, 'out'), join(dir, 'cache')).unchangedSince('manifest-1', (path) => join(dir, path))).toBeUndefined();
  });

  it('after a write: files just written are judged by their bytes, the others must be vouched for', async () => {
    await writeFile(join(dir, 'old.ts'), 'old\n');
    await pause(150);
    const onDisk = (path: string) => join(dir, path);
    const cache = openStatCache(join(dir, 'out'), join(dir, 'cache'));
    cache.record('old.ts', await stat(onDisk('old.ts')), hashBytes('old\n'), Date.now());
    await writeFile(join(dir, 'new.ts'), 'new\n');
    const files = [['old.ts', hashBytes('old\n')], ['new.ts', hashBytes('new\n')]] as const;
    cache.snapshotAfterWrite('manifest-1', files, new Set(['new.ts']), onDisk);
    const reopened = () => openStatCache(join(dir, 'out'), join(dir, 'cache'));
    expect(reopened().unchangedSince('manifest-1', onDisk)).toBe(2);
    // The bytes of a just-written file must still hash to what the manifest says.
    cache.snapshotAfterWrite('manifest-1', [files[0], ['new.ts', hashBytes('other\n')]], new Set(['new.ts']), onDisk);
    expect(reopened().unchangedSince('manifest-1', onDisk)).toBeUndefined();
    // A file neither written nor vouched for: no snapshot at all.
    await writeFile(join(dir, 'stray.ts'), 'stray\n');
    cache.snapshotAfterWrite('manifest-2', [...files, ['stray.ts', hashBytes('stray\n')]], new Set(['new.ts']), onDisk);
    expect(reopened().unchangedSince('manifest-2', onDisk)).toBeUndefined();
    // And a later edit of a just-written file is seen (its stat changes).
    cache.snapshotAfterWrite('manifest-1', files, new Set(['new.ts']), onDisk);
    await pause(20);
    await writeFile(join(dir, 'new.ts'), 'NEW\n');
    expect(reopened().unchangedSince('manifest-1', onDisk)).toBeUndefined();
  });

  it('after a write, entries of the snapshot of the manifest found carry over for files with the same hash', async () => {
    const onDisk = (path: string) => join(dir, path);
    await writeFile(onDisk('kept.ts'), 'kept\n');
    await writeFile(onDisk('new.ts'), 'new\n');
    const cache = openStatCache(join(dir, 'out'), join(dir, 'cache'));
    const files = [['kept.ts', hashBytes('kept\n')], ['new.ts', hashBytes('new\n')]] as const;
    // The first write: both files new, both judged by their bytes next time.
    cache.snapshotAfterWrite('manifest-1', files, new Set(['kept.ts', 'new.ts']), onDisk);
    await writeFile(onDisk('new.ts'), 'newer\n');
    const next = [files[0], ['new.ts', hashBytes('newer\n')]] as const;
    const previous = { manifestSha: 'manifest-1', shaOf: (path: string) => new Map<string, string>(files).get(path) };
    // The second write: kept.ts carries over (no stat-cache entry vouches for it, the snapshot does).
    cache.snapshotAfterWrite('manifest-2', next, new Set(['new.ts']), onDisk, previous);
    const reopened = () => openStatCache(join(dir, 'out'), join(dir, 'cache'));
    expect(reopened().unchangedSince('manifest-2', onDisk)).toBe(2);
    // What carries over still vouches only for the bytes it was taken of.
    await pause(20);
    await writeFile(onDisk('kept.ts'), 'KEPT\n');
    expect(reopened().unchangedSince('manifest-2', onDisk)).toBeUndefined();
    // A snapshot of another manifest carries nothing: then kept.ts needs a stat-cache entry, and has none.
    cache.snapshotAfterWrite('manifest-3', next, new Set(['new.ts']), onDisk, { ...previous, manifestSha: 'manifest-0' });
    expect(reopened().unchangedSince('manifest-3', onDisk)).toBeUndefined();
  });

  it('without a cache folder remembers nothing and writes nothing', async () => {
    const file = join(dir, 'a.ts');
    await writeFile(file, 'x');
    const cache = openStatCache(join(dir, 'out'), undefined);
    cache.record('a.ts', await stat(file), 'sha', Date.now() + 10_000);
    expect(cache.lookup('a.ts', await stat(file))).toBeUndefined();
    cache.save();
  });

  it('ignores a damaged cache file', async () => {
    const cache = openStatCache(join(dir, 'out'), join(dir, 'cache'));
    const file = join(dir, 'a.ts');
    await writeFile(file, 'x');
    cache.record('a.ts', await stat(file), 'sha', Date.now());
    cache.save();
    const [name] = (await import('node:fs')).readdirSync(join(dir, 'cache'));
    await writeFile(join(dir, 'cache', name!), 'garbage\tgarbage\n');
    expect(openStatCache(join(dir, 'out'), join(dir, 'cache')).lookup('a.ts', await stat(file))).toBeUndefined();
  });
});

describe('check with the stat cache', () => {
  let server: ReferenceServer;
  beforeEach(async () => {
    server = await startReferenceServer({ listing: exampleListing() });
  });
  afterEach(async () => {
    await server.close();
  });

  it('reports a hand-edit made after a cached, clean check, even with the mtime put back', async () => {
    const options = { cwd: dir, baseUrl: server.url, out: 'out', cacheDir: join(dir, 'cache') };
    await pull(options);
    await pause(150);
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

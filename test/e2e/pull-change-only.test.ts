/**
 * A pull whose answer differs from the last one in a few elements validates only those: the
 * others are known by their bytes, and taken from the lockfile the last answer made. It ends
 * byte for byte where a pull from scratch of the same answer ends, and a bad element anywhere
 * is still refused. The plan of its output takes the unchanged types' inputs from the last one
 * (earlier-plan.ts), and ends where a plan made anew ends.
 */
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { readTree, removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { syntheticElement, syntheticListing } from '../helpers/folder-states.mjs';

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer({ listing: syntheticListing(40) });
  dir = await tempDir();
});
afterAll(async () => {
  await server.close();
  await removeDir(dir);
});

describe('a pull that changes a few types', () => {
  it('writes the lockfile and files a pull from scratch of the same answer writes, and refuses a bad element anywhere', { timeout: 60_000 }, async () => {
    const cache = join(dir, 'cache');
    const cached = { cwd: join(dir, 'cached'), env: { SCHEMA_SYNC_CACHE_DIR: cache } };
    const scratch = { cwd: join(dir, 'scratch'), env: { SCHEMA_SYNC_CACHE_DIR: 'off' } };
    const pull = (where: typeof cached) => runCli(['pull', '--base-url', server.url, '--out', 'out'], where);
    for (const where of [cached, scratch]) await mkdir(where.cwd);

    const first = await pull(cached);
    expect(first.code, first.stderr).toBe(0);
    expect((await readdir(cache)).filter((name) => name.startsWith('elements-'))).toHaveLength(1);

    // New schema versions, a type gone, a new one whose unknown action letter is worth a warning.
    const changed = syntheticListing(40)
      .map((element, i) => (i % 10 === 3 ? syntheticElement(i, 1) : element))
      .filter((_, i) => i !== 9);
    changed.push(syntheticElement(40, 0, { actions: 'SX' }));
    server.setListing(changed);
    const incremental = await pull(cached);
    expect(incremental.code, incremental.stderr).toBe(0);
    expect(incremental.stderr).toMatch(/element 39: .*"X"/);
    const fresh = await pull(scratch);
    expect(fresh.code, fresh.stderr).toBe(0);
    const lockfile = (where: typeof cached) => readFile(join(where.cwd, 'schema-sync.lock.json'), 'utf8');
    expect(await lockfile(cached)).toBe(await lockfile(scratch));
    expect(await readTree(join(cached.cwd, 'out'))).toEqual(await readTree(join(scratch.cwd, 'out')));

    // One element of the known ones damaged: refused by its place, and nothing changes.
    const before = await readTree(cached.cwd);
    const damaged = [...changed];
    damaged[5] = syntheticElement(5, 0, { mNum: -1 });
    server.setListing(damaged);
    const refused = await pull(cached);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/element 5 \("Type00005"\), field message\.mNum/);
    expect(await readTree(cached.cwd)).toEqual(before);

    // The same types again, a few with new schema versions, then one with a new number (which
    // the index shows): the plan takes the inputs of the others from the last one
    // (earlier-plan.ts), and the files are still those of a pull from scratch.
    const typeIndex = (element: (typeof changed)[number]) => Number(String(element.message.name).slice('Type'.length));
    const versions = changed.map((element) => (typeIndex(element) % 10 === 4 ? syntheticElement(typeIndex(element), 2) : element));
    const renumbered = versions.map((element) => (typeIndex(element) === 7 ? syntheticElement(7, 0, { mNum: 5007 }) : element));
    for (const listing of [versions, renumbered]) {
      server.setListing(listing);
      for (const where of [cached, scratch]) {
        const result = await pull(where);
        expect(result.code, result.stderr).toBe(0);
      }
      expect(await lockfile(cached)).toBe(await lockfile(scratch));
      expect(await readTree(join(cached.cwd, 'out'))).toEqual(await readTree(join(scratch.cwd, 'out')));
    }
  });
});

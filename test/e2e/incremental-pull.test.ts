/**
 * A pull after a few changes must end exactly where a run without any cache ends: same report,
 * same lockfile, same files, same manifest.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { readTree, removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { syntheticElement, syntheticListing } from '../hardening/helpers.js';

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer({ listing: syntheticListing(300) });
  dir = await tempDir();
});
afterAll(async () => {
  await server.close();
  await removeDir(dir);
});

/** The listing after changes: new schema versions, a changed flag, a changed description. */
const changed = () =>
  syntheticListing(300).map((element, i) =>
    i % 50 === 7 ? syntheticElement(i, 1) : i === 100 ? syntheticElement(i, 0, { hasOKey: 'Yes' }) : i === 200 ? syntheticElement(i, 0, { desc: 'Now documented differently.' }) : element,
  );

describe('pull after a few changes', () => {
  it('ends byte for byte where an uncached pull of the same answer ends', { timeout: 60_000 }, async () => {
    const cached = { cwd: join(dir, 'cached'), env: { SCHEMA_SYNC_CACHE_DIR: join(dir, 'cache') } };
    const uncached = { cwd: join(dir, 'uncached'), env: { SCHEMA_SYNC_CACHE_DIR: 'off' } };
    const pull = (where: typeof cached) => runCli(['pull', '--base-url', server.url, '--out', 'out', '--format', 'json'], where);

    server.setListing(syntheticListing(300));
    for (const where of [cached, uncached]) {
      await mkdir(where.cwd);
      const first = await pull(where);
      expect(first.code, first.stderr).toBe(0);
    }
    server.setListing(changed());
    const [incremental, full] = [await pull(cached), await pull(uncached)];
    expect(incremental.code, incremental.stderr).toBe(0);
    expect(incremental.stdout).toBe(full.stdout);
    expect(JSON.parse(incremental.stdout).changes).toHaveLength(8);
    expect(incremental.stderr).toMatch(/8 files written/);
    expect(await readTree(cached.cwd)).toEqual(await readTree(uncached.cwd));

    // The run left a stat snapshot of what it wrote; a hand-edit right after (same size, within
    // the same clock tick as the write, for all the stat can tell) is still found and repaired.
    const edited = join(cached.cwd, 'out/messages/Type00007.ts');
    const text = await readFile(edited, 'utf8');
    await writeFile(edited, text.replace('Type00007', 'Type0000X'));
    const repaired = await pull(cached);
    expect(repaired.stderr).toMatch(/1 file written/);
    expect(await readTree(cached.cwd)).toEqual(await readTree(uncached.cwd));
  });
});

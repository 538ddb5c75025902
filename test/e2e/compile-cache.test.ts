import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTree, removeDir, runBin, tempDir } from '../helpers/cli.js';

let dir: string;
beforeAll(async () => {
  dir = await tempDir();
  writeFileSync(join(dir, 'listing.json'), JSON.stringify([{ header: { msgType: 'MsgDesc' }, message: { name: 'Order', mNum: 1, schemaHash: 'AB', actions: 'S', hasTKey: 'No', hasEKey: 'No', hasOKey: 'No', hasCF: 'No', mToken: 'T', staticFilterFields: '' } }]));
});
afterAll(() => removeDir(dir));

const entries = (cache: string) => readdirSync(cache, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());

describe('V8 code cache of the CLI', () => {
  it('is written on the first run and used after; the output is the same, a damaged entry is ignored', async () => {
    const cache = join(dir, 'cache');
    const env = { SCHEMA_SYNC_CACHE_DIR: cache };
    const first = await runBin(['generate', '--input', 'listing.json', '--out', 'a'], { cwd: dir, env }).then(() => runBin(['pull', '--input', 'listing.json', '--out', 'a', '--lockfile', 'a.lock.json'], { cwd: dir, env }));
    expect(first.code).toBe(0);
    // The bundle and ts-morph's files (ts-morph, its common part with TypeScript).
    const written = entries(cache).filter((e) => !e.name.startsWith('stat-'));
    expect(written.length).toBeGreaterThanOrEqual(2);
    const second = await runBin(['pull', '--input', 'listing.json', '--out', 'b', '--lockfile', 'b.lock.json'], { cwd: dir, env });
    expect(second.code).toBe(0);
    for (const entry of written) writeFileSync(join(entry.parentPath, entry.name), 'not V8 data');
    const third = await runBin(['pull', '--input', 'listing.json', '--out', 'c', '--lockfile', 'c.lock.json'], { cwd: dir, env });
    expect(third.code).toBe(0);
    expect(third.stderr).not.toMatch(/warning|error/i);
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((out) => readTree(join(dir, out))));
    expect(b).toEqual(a);
    expect(c).toEqual(a);
  });

  it('SCHEMA_SYNC_CACHE_DIR=off writes no cache', async () => {
    const run = await runBin(['pull', '--input', 'listing.json', '--out', 'd', '--lockfile', 'd.lock.json'], { cwd: dir, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
    expect(run.code).toBe(0);
    expect(readdirSync(dir).filter((name) => name.includes('cache'))).toEqual(['cache']);
  });
});

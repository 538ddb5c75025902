import { readFile, stat, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generate, pull } from '../../src/index.js';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { readTree, removeDir, tempDir } from '../helpers/cli.js';
import { exampleListing, type WireElement } from '../helpers/listing.js';

let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startTestServer({ listing: exampleListing() });
});
afterAll(() => server.close());
beforeEach(async () => {
  dir = await tempDir();
  server.setListing(exampleListing());
});
afterEach(() => removeDir(dir));

const run = (extra: Record<string, unknown> = {}) => pull({ cwd: dir, baseUrl: server.url, out: 'out', ...extra });

async function mtimes(root: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const path of (await readTree(root)).keys()) out.set(path, (await stat(join(root, path))).mtimeMs);
  return out;
}

function shuffle<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('writing the output folder', () => {
  it('shuffled listings give byte-identical files and lockfile', async () => {
    await run();
    const first = await readTree(dir);
    for (const seed of [1, 2, 3]) {
      await removeDir(join(dir, 'out'));
      await removeDir(join(dir, 'schema-sync.lock.json'));
      server.setListing(shuffle(exampleListing(), seed));
      await run();
      expect(await readTree(dir)).toEqual(first);
    }
  });

  it('a second pull with no changes writes no file and keeps every mtime', async () => {
    await run();
    const before = await mtimes(dir);
    const again = await run();
    expect(again.write?.written).toEqual([]);
    expect(again.write?.lockfileWritten).toBe(false);
    expect(await mtimes(dir)).toEqual(before);
    // The lockfile's descriptors fingerprint exactly like the fetched ones: generate is a no-op too.
    const regenerated = await generate({ cwd: dir, out: 'out' });
    expect(regenerated.write.written).toEqual([]);
    expect(await mtimes(dir)).toEqual(before);
  });

  it('a drift of k types rewrites only those k modules and the index files, deletes a removed module, leaves foreign files alone', async () => {
    await run();
    await writeFile(join(dir, 'out', 'my-notes.md'), 'mine\n');
    await mkdir(join(dir, 'out', 'messages'), { recursive: true });
    await writeFile(join(dir, 'out', 'messages', 'Handwritten.ts'), 'export const x = 1;\n');
    const before = await mtimes(join(dir, 'out'));
    const listing: WireElement[] = exampleListing().filter((e) => e.message['name'] !== 'AggregateString');
    for (const name of ['AccountRouteConfig', 'AggregateCount', 'AltSymbolMap']) {
      listing.find((e) => e.message['name'] === name)!.message['schemaHash'] = 'ABCDEF0123456789';
    }
    server.setListing(listing);
    const result = await run();
    expect(result.write?.written).toEqual(['index.ts', 'messages/AccountRouteConfig.ts', 'messages/AggregateCount.ts', 'messages/AltSymbolMap.ts']);
    expect(result.write?.deleted).toEqual(['messages/AggregateString.ts']);
    const after = await mtimes(join(dir, 'out'));
    const touched = [...after.keys()].filter((path) => after.get(path) !== before.get(path)).sort();
    expect(touched).toEqual(['.schema-sync-manifest.json', ...(result.write?.written ?? [])].sort());
    expect(await readFile(join(dir, 'out', 'my-notes.md'), 'utf8')).toBe('mine\n');
    expect(await readFile(join(dir, 'out', 'messages', 'Handwritten.ts'), 'utf8')).toBe('export const x = 1;\n');
  });

  it('generate rebuilds a hand-edited or deleted file and nothing else', async () => {
    await run();
    const tree = await readTree(join(dir, 'out'));
    await writeFile(join(dir, 'out', 'messages', 'AuctionNotice.ts'), '// edited\n');
    await removeDir(join(dir, 'out', 'index.ts'));
    const result = await generate({ cwd: dir, out: 'out' });
    expect(result.write.written).toEqual(['index.ts', 'messages/AuctionNotice.ts']);
    expect(await readTree(join(dir, 'out'))).toEqual(tree);
  });

  it('--format prettier formats with the folder\'s prettier config, and only changed files later', async () => {
    await mkdir(join(dir, 'out'), { recursive: true });
    await writeFile(join(dir, 'out', '.prettierrc'), JSON.stringify({ semi: false, singleQuote: false }));
    server.setListing(exampleListing().slice(0, 20));
    await run({ prettier: true });
    const text = await readFile(join(dir, 'out', 'messages', 'AccountRiskRecordV5.ts'), 'utf8');
    expect(text).toContain('name: "AccountRiskRecordV5",');
    expect(text).not.toMatch(/;\n/);
    const again = await run({ prettier: true });
    expect(again.write?.written).toEqual([]);
  });

  it('an edited prettier override for declaration files re-formats them (target js+dts)', async () => {
    const config = (semi: boolean) => JSON.stringify({ overrides: [{ files: '*.d.ts', options: { semi } }] });
    await mkdir(join(dir, 'out'), { recursive: true });
    await writeFile(join(dir, 'out', '.prettierrc'), config(false));
    server.setListing(exampleListing().slice(0, 3));
    await run({ prettier: true, target: 'js+dts' });
    const declarations = async () => readFile(join(dir, 'out', 'messages', 'AccountRiskRecordV5.d.ts'), 'utf8');
    expect(await declarations()).not.toMatch(/;\n/);
    await writeFile(join(dir, 'out', '.prettierrc'), config(true));
    const again = await run({ prettier: true, target: 'js+dts' });
    expect(await declarations()).toMatch(/;\n/);
    expect(again.write?.written.filter((path) => path.endsWith('.d.ts')).length).toBeGreaterThan(0);
    expect(again.write?.written.filter((path) => path.endsWith('.js'))).toEqual([]);
  });
});

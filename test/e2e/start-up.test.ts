import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTree, removeDir, ROOT, runBin, tempDir } from '../helpers/cli.js';

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
    // The bundle's entry (a pull no longer loads ts-morph) and the run records beside it.
    const written = entries(cache).filter((e) => !e.name.startsWith('stat-'));
    expect(written.length).toBeGreaterThanOrEqual(2);
    // At least the bundle's code: V8's entries are kept in a folder of their own, by Node version.
    expect(written.filter((e) => e.parentPath.includes(`v8-${process.version}-${process.arch}`)).length).toBeGreaterThanOrEqual(1);
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

describe('start-up tricks stay in the CLI', () => {
  it('the library entry loads no module of dist/cli/ (start-up, undici parts), and plain undici', async () => {
    // A resolve hook prints every module the import of dist/index.js resolves.
    const hooks = 'export async function resolve(specifier, context, next) { const resolved = await next(specifier, context); console.log(resolved.url); return resolved; }';
    const script = `import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});
await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist/index.js')).href)});`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
    const loaded = stdout.split('\n');
    expect(loaded).toContain(pathToFileURL(join(ROOT, 'dist/fetch/http-get.js')).href);
    expect(loaded.some((url) => url.endsWith('/node_modules/undici/index.js'))).toBe(true);
    expect(loaded.filter((url) => url.includes('/dist/cli/'))).toEqual([]);
  });

  it('the CLI bundle has the parts of undici instead of its index, and string-width behind the ASCII stand-in', () => {
    const bundle = readFileSync(join(ROOT, 'dist/cli/schema-sync.cjs'), 'utf8');
    expect(bundle).toContain('// dist/cli/undici-parts.js');
    expect(bundle).not.toContain('// node_modules/undici/index.js');
    expect(bundle).toContain('= asciiStringWidth(');
  });

  it('the CLI bundle names its modules by their paths in the project, never by the folder it was built in (two builds of the same sources in two folders are the same bytes)', () => {
    const bundle = readFileSync(join(ROOT, 'dist/cli/schema-sync.cjs'), 'utf8');
    expect(bundle).toContain('// ascii-string-width:node_modules/');
    expect(bundle).not.toContain(ROOT);
  });
});

/**
 * The lockfile records the generation settings of the run that wrote it: `generate` and `check`
 * with no flags reproduce exactly what the last `pull` wrote; a setting given to `generate` is
 * applied and recorded.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { readTree, removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { syntheticListing } from '../hardening/helpers.js';

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer({ listing: syntheticListing(6) });
});
afterAll(async () => {
  await server.close();
  if (dir !== undefined) await removeDir(dir);
});
beforeEach(async () => {
  if (dir !== undefined) await removeDir(dir);
  dir = await tempDir();
});

const run = (args: string[]) => runCli([...args, '--out', 'out'], { cwd: dir, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
const settings = async () => (JSON.parse(await readFile(join(dir, 'schema-sync.lock.json'), 'utf8')) as { settings: unknown }).settings;

describe('the settings record', () => {
  it('pull --package X, then generate and check with no flags keep the package', async () => {
    expect((await run(['pull', '--base-url', server.url, '--package', '@acme/schema-types'])).code).toBe(0);
    expect(await settings()).toEqual({ packageName: '@acme/schema-types', packageVersion: '1.0.0' });
    const tree = await readTree(join(dir, 'out'));
    const generated = await run(['generate']);
    expect(generated.code, generated.stderr).toBe(0);
    expect(generated.stderr).toMatch(/0 files written, 0 deleted/);
    expect(await readTree(join(dir, 'out'))).toEqual(tree);
    expect(existsSync(join(dir, 'out/package.json'))).toBe(true);
    expect((await run(['check', '--base-url', server.url])).code).toBe(0);
  });

  it('pull with prettier, then check is in sync and generate writes nothing', async () => {
    expect((await run(['pull', '--base-url', server.url, '--prettier'])).code).toBe(0);
    expect(await settings()).toEqual({ prettier: true });
    const checked = await run(['check', '--base-url', server.url]);
    expect(checked.code, checked.stdout).toBe(0);
    expect((await run(['generate'])).stderr).toMatch(/0 files written/);
  });

  it('a setting given to generate is applied and recorded', async () => {
    expect((await run(['pull', '--base-url', server.url])).code).toBe(0);
    expect(await settings()).toEqual({});
    const generated = await run(['generate', '--package', 'schema-types']);
    expect(generated.code, generated.stderr).toBe(0);
    expect(await settings()).toEqual({ packageName: 'schema-types', packageVersion: '1.0.0' });
    expect(existsSync(join(dir, 'out/package.json'))).toBe(true);
    expect((await run(['check', '--base-url', server.url])).code).toBe(0);
  });

  it('a target given to generate is applied and recorded; caches never serve the other target\'s files', async () => {
    // The caches on: the plan key must tell the targets apart.
    const cached = (args: string[]) => runCli([...args, '--out', 'out'], { cwd: dir, env: { SCHEMA_SYNC_CACHE_DIR: join(dir, 'cache') } });
    expect((await cached(['pull', '--base-url', server.url, '--package', 'schema-types'])).code).toBe(0);
    const js = await readTree(join(dir, 'out'));
    expect([...js.keys()].filter((path) => !path.startsWith('messages/'))).toEqual(['.gitattributes', '.schema-sync-manifest.json', 'CHANGELOG.md', 'README.md', 'index.d.ts', 'index.js', 'package.json', 'types.d.ts']);
    const toTs = await cached(['generate', '--target', 'ts']);
    expect(toTs.code, toTs.stderr).toBe(0);
    expect(await settings()).toEqual({ packageName: 'schema-types', packageVersion: '1.0.0', target: 'ts' });
    const ts = await readTree(join(dir, 'out'));
    expect([...ts.keys()].filter((path) => /\.(?:js|d\.ts)$/.test(path))).toEqual([]);
    expect(ts.get('messages/Type00000.ts')).toContain('as const satisfies MessageDescriptor');
    expect(JSON.parse(ts.get('package.json')!).exports['.'].default).toBe('./index.ts');
    expect((await cached(['generate'])).stderr).toMatch(/0 files written, 0 deleted/);
    // Back to the default of a package: nothing about the target is recorded, the files are as before.
    expect((await cached(['generate', '--target', 'js+dts'])).code).toBe(0);
    expect(await settings()).toEqual({ packageName: 'schema-types', packageVersion: '1.0.0' });
    expect(await readTree(join(dir, 'out'))).toEqual(js);
    expect((await cached(['check', '--base-url', server.url])).code).toBe(0);
  });
});

describe('the service URL', () => {
  it('lives in the lockfile only: another spelling of the same service writes no generated file', async () => {
    const port = new URL(server.url).port;
    expect((await run(['pull', '--base-url', `http://127.0.0.1:${port}`])).code).toBe(0);
    const tree = await readTree(join(dir, 'out'));
    for (const [path, text] of tree) expect(text, path).not.toContain(port);
    const respelled = await run(['pull', '--base-url', `http://localhost:${port}/rest/proto/`]);
    expect(respelled.code, respelled.stderr).toBe(0);
    expect(respelled.stderr).toMatch(/0 files written/);
    expect(await readTree(join(dir, 'out'))).toEqual(tree);
    expect((await readFile(join(dir, 'schema-sync.lock.json'), 'utf8'))).toContain(`"baseUrl": "http://localhost:${port}"`);
  });
});

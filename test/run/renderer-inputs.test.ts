/**
 * What a renderer reads is its input: a changed template variable re-renders exactly the files
 * that show it, with caches and without, and no constant is raised by hand for it.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, pull } from '../../src/index.js';
import { BUILTIN_TEMPLATES_DIR } from '../../src/emit/templates.js';
import { startReferenceServer, type ReferenceServer } from '../../src/server/index.js';
import { removeDir, tempDir } from '../helpers/cli.js';
import { smallListing } from '../helpers/listing.js';

let server: ReferenceServer;
let dir: string;
beforeAll(async () => {
  server = await startReferenceServer({ listing: smallListing(3) });
  dir = await tempDir();
});
afterAll(async () => {
  await server.close();
  await removeDir(dir);
});

describe('a template the output reads', () => {
  it.each([{ caches: false }, { caches: true }])('re-renders the modules that show a new banner variable, and only those (caches: $caches)', async ({ caches }) => {
    const cwd = join(dir, caches ? 'cached' : 'plain');
    await mkdir(join(cwd, 'templates'), { recursive: true });
    const banner = await readFile(join(BUILTIN_TEMPLATES_DIR, 'banner.txt'), 'utf8');
    await writeFile(join(cwd, 'templates', 'banner.txt'), banner);
    const options = { cwd, out: 'out', cacheDir: caches ? join(cwd, 'cache') : (false as const) };
    await pull({ ...options, baseUrl: server.url, templates: 'templates' });
    expect((await generate(options)).write.written).toEqual([]);

    await writeFile(join(cwd, 'templates', 'banner.txt'), `${banner}// Type: {{messageName}}\n`);
    const { write } = await generate(options);
    expect(write.written).toEqual(['messages/T0000.ts', 'messages/T0001.ts', 'messages/T0002.ts']);
    expect(await readFile(join(cwd, 'out/messages/T0001.ts'), 'utf8')).toContain('// Type: T0001\n');
    expect((await generate(options)).write.written).toEqual([]);
  });
});

/**
 * A pull writes every file, the index and `types.ts` included, without loading ts-morph's main
 * module: it brings the whole TypeScript compiler (tens of MB resident), which only `init` and
 * `--impact` need.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BIN, removeDir, ROOT, runCacheEnv, tempDir } from '../helpers/cli.js';

/**
 * A preload that writes, as the process exits, whether ts-morph's main module was loaded, and
 * its writer (code-block-writer), which shows that the probe sees what the CLI loads: Node keeps
 * every CommonJS module it loads, imported from an ES module too, in `require.cache`.
 */
const PROBE = `const { writeFileSync } = require('node:fs');
const main = require.resolve('ts-morph', { paths: [process.env.PROBE_ROOT] });
process.on('exit', () => {
  const loaded = Object.keys(require.cache);
  writeFileSync(process.env.PROBE_OUT, JSON.stringify({ tsMorph: loaded.includes(main), writer: loaded.some((file) => file.includes('code-block-writer')) }));
});
`;

let dir: string;
beforeAll(async () => {
  dir = await tempDir();
  await writeFile(join(dir, 'probe.cjs'), PROBE);
  await writeFile(join(dir, 'listing.json'), JSON.stringify([{ header: { msgType: 'MsgDesc' }, message: { name: 'Order', mNum: 1, schemaHash: 'AB', actions: 'S', mToken: 'T' } }]));
});
afterAll(() => removeDir(dir));

describe('the TypeScript compiler', () => {
  it('is not loaded by a pull that writes the index and types.ts', async () => {
    const env = { PATH: process.env['PATH'], NO_COLOR: '1', ...runCacheEnv(), PROBE_ROOT: ROOT, PROBE_OUT: join(dir, 'loaded.txt') };
    await promisify(execFile)(process.execPath, ['--require', join(dir, 'probe.cjs'), BIN, 'pull', '--input', 'listing.json', '--out', 'out', '--lockfile', 'out.lock.json'], { cwd: dir, env });
    await expect(readFile(join(dir, 'out/index.ts'), 'utf8')).resolves.toContain('export const messages: {');
    await expect(readFile(join(dir, 'out/types.ts'), 'utf8')).resolves.toContain('export interface MessageDescriptor {');
    expect(JSON.parse(await readFile(join(dir, 'loaded.txt'), 'utf8'))).toEqual({ tsMorph: false, writer: true });
  });
});

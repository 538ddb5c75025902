/**
 * Caching changes how much work a run does, never what it produces: the same commands run in a
 * project with caches and in one with SCHEMA_SYNC_CACHE_DIR=off give the same output, exit codes
 * and files, byte for byte, at every step. The CLI runs in this process (test/helpers/in-process.ts):
 * what is compared is what the runs produce, not the process they run in.
 */
import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { readTree, removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { syntheticElement, syntheticListing } from '../hardening/helpers.js';

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer({ listing: syntheticListing(120) });
  dir = await tempDir();
});
afterAll(async () => {
  await server.close();
  await removeDir(dir);
});

describe('with caches and with SCHEMA_SYNC_CACHE_DIR=off', () => {
  it('every command gives the same bytes', { timeout: 60_000 }, async () => {
    const projects = [
      { cwd: join(dir, 'cached'), env: { SCHEMA_SYNC_CACHE_DIR: join(dir, 'cache') } },
      { cwd: join(dir, 'off'), env: { SCHEMA_SYNC_CACHE_DIR: 'off' } },
    ];
    for (const project of projects) await mkdir(project.cwd);
    /** Runs a command in both projects; both must agree on exit code, stdout and every file. */
    const both = async (args: string[]) => {
      const [cached, off] = await Promise.all(projects.map((project) => runCli([...args, '--out', 'out'], project)));
      expect(cached!.code, cached!.stderr).toBe(off!.code);
      expect(cached!.stdout).toBe(off!.stdout);
      expect(await readTree(projects[0]!.cwd)).toEqual(await readTree(projects[1]!.cwd));
      return cached!;
    };
    const pull = ['pull', '--base-url', server.url, '--format', 'json'];
    const check = ['check', '--base-url', server.url, '--format', 'json'];

    expect((await both(pull)).code).toBe(0);
    expect((await both(pull)).code).toBe(0);
    expect((await both(check)).code).toBe(0);
    server.setListing(syntheticListing(120).map((element, i) => (i % 30 === 3 ? syntheticElement(i, 1) : element)));
    expect(JSON.parse((await both(check)).stdout).changes).toHaveLength(4);
    expect((await both(pull)).code).toBe(0);
    // A hand-edit right after a write: found by check, repaired by generate.
    for (const project of projects) {
      const file = join(project.cwd, 'out/messages/Type00003.ts');
      await writeFile(file, (await readFile(file, 'utf8')).replace('Type00003', 'Type0000X'));
    }
    expect(JSON.parse((await both(check)).stdout).staleFiles).toEqual([{ path: 'messages/Type00003.ts', reason: 'modified' }]);
    expect((await both(['generate'])).code).toBe(0);
    expect((await both(check)).code).toBe(0);
    // Fewer types (forced), then a package.
    server.setListing(syntheticListing(50));
    expect((await both([...pull, '--force'])).code).toBe(0);
    expect((await both([...pull, '--package', '@acme/schema'])).code).toBe(0);
    expect((await both([...check, '--package', '@acme/schema'])).code).toBe(0);
    // The cached project did use its cache folder (the run record and stat cache of its output).
    expect((await readdir(join(dir, 'cache'))).some((name) => name.startsWith('memo-'))).toBe(true);
  });
});

/**
 * A lockfile with git merge conflict markers: `pull` takes the current branch's side as the
 * baseline of its report and writes a clean lockfile; `check` and `generate` refuse, saying how
 * to resolve it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { syntheticElement, syntheticListing } from '../hardening/helpers.js';

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer({ listing: syntheticListing(5) });
  dir = await tempDir();
});
afterAll(async () => {
  await server.close();
  await removeDir(dir);
});

describe('a lockfile with merge conflict markers', () => {
  it('check and generate refuse with the way out; pull diffs against our side and writes it clean', async () => {
    const env = { SCHEMA_SYNC_CACHE_DIR: 'off' };
    const run = (args: string[]) => runCli([...args, '--out', 'out'], { cwd: dir, env });
    expect((await run(['pull', '--base-url', server.url])).code).toBe(0);
    const lockfile = join(dir, 'schema-sync.lock.json');
    const clean = await readFile(lockfile, 'utf8');
    const ours = clean.match(/ {6}"schemaHash": "[^"]*",\n/)![0];
    const theirs = ours.replace(/"schemaHash": "[^"]*"/, '"schemaHash": "THEIRS"');
    await writeFile(lockfile, clean.replace(ours, `<<<<<<< HEAD\n${ours}=======\n${theirs}>>>>>>> feature\n`));

    for (const args of [['check', '--base-url', server.url], ['generate']]) {
      const refused = await run(args);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/error \[LOCK\]: .*schema-sync\.lock\.json has git merge conflict markers \(line \d+\)\./);
      expect(refused.stderr).toContain('`schema-sync pull` takes your branch\'s side as the baseline');
      expect(refused.stderr).toContain('git checkout --ours');
    }

    server.setListing(syntheticListing(5).map((element, i) => (i === 1 ? syntheticElement(i, 1) : element)));
    const pulled = await runCli(['pull', '--base-url', server.url, '--out', 'out', '--format', 'json'], { cwd: dir, env });
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stderr).toMatch(/merge conflict markers \(line \d+\): your branch's side is the baseline/);
    expect(JSON.parse(pulled.stdout).changes.map((c: { name: string }) => c.name)).toEqual(['Type00001']);
    const written = await readFile(lockfile, 'utf8');
    expect(written).not.toMatch(/<<<<<<<|=======|>>>>>>>/);
    expect((await run(['check', '--base-url', server.url])).code).toBe(0);
  });
});

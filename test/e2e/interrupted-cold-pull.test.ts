/**
 * Ctrl-C during a cold pull (no output folder, no lockfile yet) leaves nothing behind: not the
 * output folder the run made, nor its parent the run made, nor its transaction folder or run
 * lock; and it says so. The Ctrl-C comes right after the run has created its lock in the folder
 * it made (test/hardening/kill-at.mjs), so it always lands mid-run, before the commit point.
 */
import { readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { removeDir, tempDir } from '../helpers/cli.js';
import { startCli, syntheticListing } from '../hardening/helpers.js';

const KILL_AT = fileURLToPath(new URL('../hardening/kill-at.mjs', import.meta.url));

let dir: string;
beforeAll(async () => {
  dir = await tempDir('schema-sync-cold-');
  await writeFile(join(dir, 'listing.json'), JSON.stringify(syntheticListing(200)));
});
afterAll(() => removeDir(dir));

it('Ctrl-C during a cold pull removes the output folder it made, its transaction folder and its run lock', async () => {
  const atLock = [{ op: 'open', path: '^out/generated/\\.schema-sync-run\\.lock$', n: 1 }];
  const run = startCli(['pull', '--input', 'listing.json', '--out', 'out/generated'], {
    cwd: dir,
    nodeArgs: ['--import', KILL_AT],
    env: { SCHEMA_SYNC_CACHE_DIR: 'off', KILL_AT_ROOT: dir, KILL_AT: JSON.stringify(atLock), KILL_AT_SIGNAL: 'SIGINT' },
  });
  const result = await run.done;
  expect(result.code, result.stderr).toBe(130);
  expect(result.stderr).toBe('schema-sync: interrupted (SIGINT) before any change: nothing was written.\n');
  expect(readdirSync(dir)).toEqual(['listing.json']);
}, 60_000);

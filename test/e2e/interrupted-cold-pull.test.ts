/**
 * Ctrl-C during a cold pull (no output folder, no lockfile yet) leaves nothing behind: not the
 * output folder the run made, nor its transaction folder or run lock.
 */
import { existsSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RUN_LOCK_FILE } from '../../src/write/index.js';
import { removeDir, tempDir } from '../helpers/cli.js';
import { startCli, syntheticListing } from '../hardening/helpers.js';

let dir: string;
beforeAll(async () => {
  dir = await tempDir('schema-sync-cold-');
  // Enough types that rendering them keeps the run well before its commit point for a while.
  await writeFile(join(dir, 'listing.json'), JSON.stringify(syntheticListing(2000)));
});
afterAll(() => removeDir(dir));

it('Ctrl-C during a cold pull removes the output folder it made, its transaction folder and its run lock', async () => {
  const run = startCli(['pull', '--input', 'listing.json', '--out', 'out'], { cwd: dir, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
  let exited = false;
  void run.done.then(() => (exited = true));
  // Interrupt once the run holds its lock in the folder it created, i.e. mid-run.
  while (!exited && !existsSync(join(dir, 'out', RUN_LOCK_FILE))) await sleep(2);
  expect(exited, 'the pull ended before it took its lock').toBe(false);
  run.child.kill('SIGINT');
  const result = await run.done;
  if (result.code === 0) {
    // The signal came after the commit point: the run finished, as it must then; still nothing of its own is left.
    expect(readdirSync(join(dir, 'out')).filter((name) => name.startsWith('.schema-sync') && name !== '.schema-sync-manifest.json')).toEqual([]);
    console.warn('interrupted-cold-pull: the pull had passed its commit point; the roll-back branch was not exercised this time');
    return;
  }
  expect(result.code).toBe(130);
  expect(result.stderr).toBe('schema-sync: interrupted (SIGINT); the lockfile and output folder are as before the run, or as it leaves them.\n');
  expect(readdirSync(dir)).toEqual(['listing.json']);
}, 60_000);

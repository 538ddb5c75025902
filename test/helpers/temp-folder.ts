/**
 * A vitest global setup: the test run's own temporary folder, on a RAM file system when there is
 * a roomy one (/dev/shm with 2 GB free), as `roomyTempDir` (folder-states.mjs) chooses for the
 * kill runs. The tests make and delete tens of thousands of small files in temporary projects;
 * on a disk each creation and removal waits on the file system's journal, which made the file
 * operations of the suite cost more than most of what they test. What the tests check is the
 * order and outcome of operations, which a RAM file system keeps as a disk does (permissions,
 * links, renames and all).
 *
 * The folder is made for the run, open to every user as /tmp is (the tests that run as `nobody`
 * make their folders in it), and set as TMPDIR, so `os.tmpdir()` in the workers, and in the
 * processes they start with their environment, points there; it is removed when the run ends,
 * with anything a test left behind. A TMPDIR set by whoever runs the tests is used as it is.
 */
import { chmod, mkdtemp, rm, statfs } from 'node:fs/promises';
import { join } from 'node:path';

/** Where to look for a RAM file system, and how much room it must have. */
const SHM = '/dev/shm';
const ROOM = 2 * 1024 ** 3;

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env['TMPDIR'] !== undefined && process.env['TMPDIR'] !== '') return undefined;
  const free = await statfs(SHM).then((s) => s.bavail * s.bsize, () => 0);
  if (free < ROOM) return undefined;
  // A short name, of no word the CLI's wording uses: test/hardening/secrets-wording.test.ts
  // masks such words in the paths it prints.
  const dir = await mkdtemp(join(SHM, 'ss-tmp-')).catch(() => undefined);
  if (dir === undefined) return undefined;
  await chmod(dir, 0o1777);
  process.env['TMPDIR'] = dir;
  return async () => {
    delete process.env['TMPDIR'];
    await rm(dir, { recursive: true, force: true });
  };
}

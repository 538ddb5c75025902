/**
 * A vitest global setup: a copy of the built CLI that another user can run. The permission
 * tests run the CLI as `nobody` when the tests run as root (test/helpers/cli.ts, `asUser`), and
 * a checkout may sit in a folder only root can enter (a `mktemp -d` folder is 0700): `nobody`
 * then cannot read `dist/cli/bin.js` there. Only in that case, the CLI with what it loads
 * (`dist/`, `templates/`, `package.json`, `node_modules/`) is linked (or copied, across file
 * systems) into a folder of the OS temp folder that everyone can enter, and the tests run that
 * copy; it is removed when the run ends.
 */
import { spawnSync } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'dist/cli/bin.js');
const PARTS = ['dist', 'templates', 'package.json', 'node_modules'];

/** Whether `user` can read the CLI where it stands (false where `runuser` does not work at all). */
function canRead(user: string, file: string): boolean {
  return spawnSync('runuser', ['-u', user, '--', 'test', '-r', file]).status === 0;
}

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.getuid?.() !== 0 || process.env['SCHEMA_SYNC_TEST_OTHER_USER_ROOT'] !== undefined) return undefined;
  if (canRead('nobody', BIN) || !canRead('root', BIN)) return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'schema-sync-test-install-'));
  await chmod(dir, 0o755);
  const sources = PARTS.map((part) => join(ROOT, part));
  // Hard links cost no copying; they fail across file systems, where a plain copy does.
  const linked = spawnSync('cp', ['-al', ...sources, dir]).status === 0;
  if (!linked && spawnSync('cp', ['-a', ...sources, dir]).status !== 0) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`could not copy the built CLI to ${dir} for the tests that run as nobody`);
  }
  process.env['SCHEMA_SYNC_TEST_OTHER_USER_ROOT'] = dir;
  return () => rm(dir, { recursive: true, force: true });
}

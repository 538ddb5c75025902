/**
 * A vitest global setup: the test run's own cache folder. The tests' temporary projects lie
 * outside any `node_modules`, so schema-sync would keep their caches (one run record and stat
 * cache per output folder, the CLI's code cache) in the per-user folder in the OS temp folder,
 * which then grew with every run of the suite. The workers inherit this folder, and `runCli` and
 * `runBin` pass it on unless a test names its own; it is removed when the run ends. A
 * `SCHEMA_SYNC_CACHE_DIR` set by whoever runs the tests is used as it is, and kept.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env['SCHEMA_SYNC_CACHE_DIR'] !== undefined) return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'schema-sync-test-cache-'));
  process.env['SCHEMA_SYNC_CACHE_DIR'] = dir;
  return () => rm(dir, { recursive: true, force: true });
}

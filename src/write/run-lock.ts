import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { WriteError } from '../model/errors.js';

/** Lock file inside the output folder while a run writes there. */
export const RUN_LOCK_FILE = '.schema-sync-run.lock';

/** How long a second run waits for the first. @default 30000 */
export const DEFAULT_LOCK_WAIT_MS = 30_000;

/**
 * Takes the output folder's run lock, so two runs never interleave their writes. A second run
 * waits up to `waitMs`, then fails; a lock whose process is gone (killed run) is taken over.
 * Returns the release function.
 */
export async function acquireRunLock(outDir: string, options: { waitMs?: number } = {}): Promise<() => Promise<void>> {
  const waitMs = options.waitMs ?? DEFAULT_LOCK_WAIT_MS;
  const file = join(outDir, RUN_LOCK_FILE);
  await mkdir(outDir, { recursive: true });
  const deadline = Date.now() + waitMs;
  const owner = `${process.pid}@${hostname()}`;
  for (;;) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(owner);
      await handle.close();
      return () => rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new WriteError(`cannot create ${file}: ${(error as Error).message}`, { cause: error });
      }
    }
    const holder = await readFile(file, 'utf8').catch(() => '');
    // An empty lock is one being written right now, unless it has stayed empty for seconds.
    const emptyAndOld = holder.trim() === '' && Date.now() - ((await stat(file).catch(() => undefined))?.mtimeMs ?? 0) > 5_000;
    if (emptyAndOld || isStale(holder)) {
      await rm(file, { force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      throw new WriteError(`another schema-sync is running on ${outDir} (process ${holder || 'unknown'}).`, {
        hint: `Wait for it to finish. If no other run exists, delete ${file}.`,
      });
    }
    await sleep(100);
  }
}

/** A lock is stale when its process, on this host, no longer exists. */
function isStale(holder: string): boolean {
  const match = /^(\d+)@(.*)$/.exec(holder.trim());
  if (!match) return holder.trim() !== '';
  if (match[2] !== hostname()) return false;
  try {
    process.kill(Number(match[1]), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

import { mkdir, copyFile, rename, unlink } from 'node:fs/promises';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { dirname } from 'node:path';

/** The file operations a transaction is made of, each safe to repeat when a replay finds it done. */

/** Moves `from` to `to`, copying across file systems (then renaming beside the target). */
export async function moveFile(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    // Lockfile on another file system: copy beside the target, then rename there.
    const temp = `${to}.${process.pid}.tmp`;
    await copyFile(from, temp);
    await rename(temp, to);
    await unlink(from);
  }
}

/** Awaits `work`, ignoring a missing file. */
export async function ignoreMissing(work: Promise<unknown>): Promise<void> {
  try {
    await work;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Runs `work`, ignoring a missing file. */
export function ignoreMissingSync(work: () => void): void {
  try {
    work();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Runs synchronous file operations in chunks, yielding to the event loop between them: sync
 * calls cost less than the promise API per small file, and yielding keeps Ctrl-C prompt.
 */
export async function inChunks<T>(items: readonly T[], work: (item: T) => void, size = 500): Promise<void> {
  for (let i = 0; i < items.length; i += size) {
    for (const item of items.slice(i, i + size)) work(item);
    if (i + size < items.length) await yieldToEventLoop();
  }
}

import { copyFileSync, mkdirSync, renameSync, unlinkSync } from 'node:fs';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { dirname } from 'node:path';

/**
 * The file operations a transaction is made of. Those after the commit point are synchronous, so
 * that no signal is taken in the middle of a roll-forward; each is safe to repeat when a replay
 * finds it done.
 */

/** Moves `from` to `to`, copying across file systems (then renaming beside the target). */
export function moveFile(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    // Lockfile on another file system: copy beside the target, then rename there.
    const temp = `${to}.${process.pid}.tmp`;
    copyFileSync(from, temp);
    renameSync(temp, to);
    unlinkSync(from);
  }
}

/** Runs `work`, ignoring a missing file (one a replay finds moved or deleted already). */
export function ignoreMissing(work: () => void): void {
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

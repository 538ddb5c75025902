import { recoverPending } from './journal.js';
import { acquireRunLock } from './run-lock.js';
import { openFolderView, type FolderView } from './folder-view.js';

/**
 * Runs `work` holding the output folder's run lock, after finishing or discarding whatever an
 * interrupted run left, with a view of the folder as it now is.
 */
export async function withRunLock<T>(outDir: string, work: (view: FolderView) => Promise<T>, options: { lockfilePath: string; waitMs?: number }): Promise<T> {
  const release = await acquireRunLock(outDir, options);
  try {
    await recoverPending(outDir, options.lockfilePath);
    return await work(await openFolderView(outDir));
  } finally {
    await release();
  }
}

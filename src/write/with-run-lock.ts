import { recoverPending } from './journal.js';
import { acquireLockfileLock, acquireRunLock, DEFAULT_LOCK_WAIT_MS } from './run-lock.js';
import { openFolderView, type FolderView } from './folder-view.js';
import type { Message } from '../model/message.js';

/**
 * Thrown into a run that SIGINT or SIGTERM interrupted: it rolled back (`completed` false: it
 * changed nothing), or it was past its commit point and finished (`completed` true).
 */
export class Interrupted extends Error {
  constructor(
    readonly signal: NodeJS.Signals,
    readonly completed = false,
  ) {
    super(`interrupted by ${signal}`);
    this.name = 'Interrupted';
  }
}

/**
 * Runs `work` holding the output folder's run lock and then the lockfile's (always in that order,
 * so two runs never wait for each other; one `waitMs` for both), after finishing or discarding
 * whatever an interrupted run left, with a view of the folder as it now is.
 *
 * Meanwhile SIGINT and SIGTERM do not end the process at once: `work` learns of them through
 * `interrupt`, and a transaction not yet committed is rolled back (its transaction folder removed), one
 * committed is finished; then the lock is released and {@link Interrupted} thrown (saying which of
 * the two it was), so that the caller ends as it was asked to, leaving the folder and lockfile
 * wholly before or after. `work` ends by its commit point: whatever it does after is done.
 */
export async function withRunLock<T>(
  outDir: string,
  work: (view: FolderView, interrupt: AbortSignal) => Promise<T>,
  options: { lockfilePath: string; waitMs?: number; /** Says what recovery discarded or kept. */ warn?: (text: Message) => void },
): Promise<T> {
  const interrupt = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => interrupt.abort(new Interrupted(signal));
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let completed = false;
  try {
    const deadline = Date.now() + (options.waitMs ?? DEFAULT_LOCK_WAIT_MS);
    const release = await acquireRunLock(outDir, { waitMs: options.waitMs, interrupt: interrupt.signal });
    try {
      const releaseLockfile = await acquireLockfileLock(options.lockfilePath, { waitMs: Math.max(0, deadline - Date.now()), interrupt: interrupt.signal });
      try {
        await recoverPending(outDir, options.lockfilePath, options.warn);
        const result = await work(await openFolderView(outDir), interrupt.signal);
        completed = true;
        return result;
      } finally {
        await releaseLockfile();
      }
    } finally {
      await release();
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    // Also after a run that finished its commit: the process was asked to stop.
    if (interrupt.signal.aborted) {
      const reason: unknown = interrupt.signal.reason;
      throw completed && reason instanceof Interrupted ? new Interrupted(reason.signal, true) : reason;
    }
  }
}

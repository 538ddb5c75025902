import { LockfileText } from '../lock/index.js';
import { LockError } from '../model/errors.js';
import type { FolderView } from '../write/index.js';

/**
 * The lockfile as the next command will see it (a pending interrupted run's, if any); undefined
 * when there is none (the first pull).
 */
export async function readLockfile(view: FolderView, path: string): Promise<LockfileText | undefined> {
  const text = await view.readLockfile(path);
  return text === undefined ? undefined : new LockfileText(text, path);
}

/** {@link readLockfile} for commands that cannot work without one: a LockError ending with `what` when there is none. */
export async function requireLockfile(view: FolderView, path: string, what: { detail: string; hint: string }): Promise<LockfileText> {
  const lockfile = await readLockfile(view, path);
  if (lockfile === undefined) throw new LockError(`no lockfile at ${path}${what.detail}`, { hint: what.hint });
  return lockfile;
}

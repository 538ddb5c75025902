import type { Lockfile } from '../model/lockfile.js';
import type { FolderView } from '../write/folder-view.js';
import { parseLockfile } from './parse.js';

/**
 * Reads the lockfile (as a pending interrupted run would leave it). A missing file is
 * `undefined` (the first pull); anything else wrong is a LockError: an unreadable or foreign
 * lockfile is never taken as empty, because that would look like every type was added.
 */
export async function readLockfile(view: FolderView, path: string): Promise<Lockfile | undefined> {
  const text = await view.readLockfile(path);
  return text === undefined ? undefined : parseLockfile(text, path);
}

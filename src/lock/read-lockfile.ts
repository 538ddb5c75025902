import { readFile } from 'node:fs/promises';
import { LockError } from '../model/errors.js';
import type { Lockfile } from '../model/lockfile.js';
import { parseLockfile } from './parse.js';

/**
 * Reads the lockfile. A missing file is `undefined` (the first pull); any other problem is a
 * {@link LockError}: an unreadable or foreign lockfile is never taken as empty, because that
 * would look like every type was added.
 */
export async function readLockfile(path: string): Promise<Lockfile | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new LockError(`cannot read lockfile ${path}: ${(error as Error).message}`, {
      hint: 'Check the --lockfile path and its permissions.',
      cause: error,
    });
  }
  return parseLockfile(text, path);
}

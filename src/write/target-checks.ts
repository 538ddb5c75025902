import { accessSync, constants, lstatSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { WriteError } from '../model/errors.js';
import { msg, own } from '../model/message.js';

/**
 * Checks, before a run's commit point, that everything its journal will do can be done: no
 * folder on the way to a file is a symbolic link (schema-sync never writes or deletes through
 * one, wherever it points), and every folder a file is renamed into or deleted from, and the
 * lockfile's folder, can be written. A run that would fail after its commit (and leave a
 * journal that fails again on every replay) fails here instead, having changed nothing.
 */
export function checkTargets(outDir: string, targets: { paths: readonly string[]; lockfile?: string }): void {
  const folders = new Set<string>(['']);
  for (const path of targets.paths) for (let at = path.indexOf('/'); at >= 0; at = path.indexOf('/', at + 1)) folders.add(path.slice(0, at));
  for (const folder of folders) {
    const where = folder === '' ? outDir : join(outDir, folder);
    // The output folder itself may be a link (SECURITY.md): the user named it; every folder inside it is looked at as it is.
    const stat = folder === '' ? statSync(where, { throwIfNoEntry: false }) : lstatSync(where, { throwIfNoEntry: false });
    if (stat === undefined) continue;
    if (stat.isSymbolicLink()) {
      throw new WriteError(msg`${where} is a symbolic link; schema-sync never writes or deletes through one.`, {
        hint: msg`Replace it with a plain folder (or remove it) and run again.`,
      });
    }
    if (!stat.isDirectory()) throw new WriteError(msg`${where} is in the way: a file where the output needs a folder.`, { hint: msg`Move it away and run again.` });
    writable(where);
  }
  if (targets.lockfile !== undefined) writable(dirname(targets.lockfile));
}

function writable(folder: string): void {
  try {
    accessSync(folder, constants.W_OK);
  } catch (error) {
    throw writeFailure(error, folder);
  }
}

/**
 * A file system error as a WriteError that says what to do: a full disk, a folder without
 * permission or on a read-only file system; anything else named as it is.
 */
export function writeFailure(error: unknown, where: string): WriteError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new WriteError(msg`the disk is full: could not write ${where}. Nothing was changed.`, { hint: msg`Free some space and run again.`, cause: error });
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new WriteError(msg`cannot write ${where}: ${own(code === 'EROFS' ? 'read-only file system' : 'permission denied')}. Nothing was changed.`, {
      hint: msg`Run schema-sync as a user who may write the output folder and the lockfile's folder.`,
      cause: error,
    });
  }
  return new WriteError(msg`cannot write ${where}: ${(error as Error).message}. Nothing was changed.`, { cause: error });
}

import { lstatSync, readdirSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { WriteError } from '../model/errors.js';
import { msg, own } from '../model/message.js';

/**
 * The transaction folder is trusted only as schema-sync makes it: a plain folder of the user's
 * own, holding plain files and folders, never a symbolic link anywhere on the way. A repository
 * can carry one (a `git add -A` after a killed run, or a hostile pull request on purpose); one
 * that schema-sync could not have made is refused before anything in it is read or moved.
 */

/** What {@link inspectTxnEntry} found at a path. */
export type TxnEntry = 'absent' | 'file' | 'folder';

/**
 * Checks one entry of the transaction folder (`what` says which, for the message): absent, or a
 * plain file or folder (as `expect` says) owned by this process's user.
 *
 * @throws WriteError for a symbolic link, the wrong kind of entry, or another user's entry.
 */
export function inspectTxnEntry(path: string, expect: 'file' | 'folder', what: string): TxnEntry {
  let stat: Stats | undefined;
  try {
    stat = lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    // ENOTDIR: a file on the way, which the check of that file reports.
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return 'absent';
    throw new WriteError(msg`cannot inspect ${own(what)} ${path}: ${(error as Error).message}.`, { hint: msg`Delete ${path} and run again.`, cause: error });
  }
  if (stat === undefined) return 'absent';
  if (stat.isSymbolicLink()) {
    throw new WriteError(msg`${own(what)} ${path} is a symbolic link, which schema-sync never makes; it was not read or replayed.`, {
      hint: msg`It did not come from a schema-sync run (a repository may carry it): delete it (rm ${path}) and run again.`,
    });
  }
  const kind = stat.isDirectory() ? 'folder' : stat.isFile() ? 'file' : undefined;
  if (kind !== expect) {
    throw new WriteError(msg`${own(what)} ${path} is ${own(kind === 'folder' ? 'a folder' : kind === 'file' ? 'a file' : 'not a plain file')} where schema-sync keeps a ${own(expect)}.`, {
      hint: msg`schema-sync did not make it: move it away or delete it (rm -r ${path}) and run again.`,
    });
  }
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) {
    throw new WriteError(msg`${own(what)} ${path} belongs to another user (uid ${stat.uid}), e.g. a run under sudo; it was not read or replayed.`, {
      hint: msg`Delete it as that user (e.g. sudo rm -r ${path}) and run again as yourself.`,
    });
  }
  return kind;
}

/**
 * Checks everything below the transaction folder `txnDir` (itself checked already): plain files
 * and folders of the user's own, so that a prepared file is read or moved from where schema-sync
 * put it, never through a link to elsewhere.
 */
export function inspectTxnTree(txnDir: string): void {
  for (const entry of readdirSync(txnDir, { withFileTypes: true })) {
    const path = join(txnDir, entry.name);
    if (inspectTxnEntry(path, entry.isDirectory() ? 'folder' : 'file', 'the prepared entry') === 'folder') inspectTxnTree(path);
  }
}

/**
 * The identity of the transaction folder at `txnDir` (its file system and inode, `dev:ino`): a run
 * records that of the folder it made in its journal, and recovery replays a journal only in that
 * very folder. A copy, or a checkout of one a repository carries, is another folder, whatever
 * hashes its journal holds.
 */
export function txnFolderIdentity(txnDir: string): string {
  const stat = lstatSync(txnDir, { bigint: true });
  return `${stat.dev}:${stat.ino}`;
}

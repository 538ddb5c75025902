import { lstatSync, readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { LockError, WriteError } from '../model/errors.js';
import { isLinkRefusal, readFileNoFollow } from '../util/read-no-follow.js';
import { FileRefused, readBoundedFile, READ_BOUNDS, withoutBom } from '../util/read-bounded.js';
import { readJournal, pendingLockfilePath, pendingFilePath, TXN_DIR } from './journal.js';
import { LOCKFILE_LOCK_SUFFIX, RUN_LOCK_FILE } from './run-lock.js';
import { msg, own } from '../model/message.js';
import { SymbolicLinkFound } from './symbolic-link-found.js';

/**
 * The output folder as the next run will see it: when an interrupted run left a committed
 * journal, its prepared files and lockfile count as already in place. Read-only, so `check` and
 * `--dry-run` can honour a pending run without finishing it.
 */
export interface FolderView {
  /** Whether an interrupted run left a committed journal that the next writing run will finish. */
  readonly pending: boolean;
  /**
   * Whether the folder held none of the output when the view was opened (it did not exist, or
   * held only a run's lock): then no file needs reading to know it is not there.
   */
  readonly empty: boolean;
  /**
   * Bytes of a file relative to the output folder, or undefined when absent.
   * @throws SymbolicLinkFound when the file, or a folder on the way inside the output folder, is
   * a symbolic link: it is not read, nor followed.
   */
  read(path: string): Promise<Buffer | undefined>;
  /** Text of the lockfile at `path`, or undefined when absent. */
  readLockfile(path: string): Promise<string | undefined>;
  /**
   * Where `path` is read from when that is the folder itself; undefined while a pending run
   * prepares or deletes it, or when a folder on the way is a symbolic link (then only
   * {@link FolderView.read} tells the truth). A stat of it must not follow a link (lstat).
   */
  pathOnDisk(path: string): string | undefined;
  /**
   * The paths (posix, relative to the folder, unsorted) of the plain files the folder holds as the
   * next run will see it, but a run's own (its lock and transaction folder) and those in hidden
   * folders (`.git`) and `node_modules`. Symbolic links are not followed, nor listed: one in the
   * way of the output is reported as such (see `ChangeSet.linked`).
   */
  files(): string[];
}

/**
 * Opens a read-only view of `outDir`, honouring a pending journal. Nothing inside `outDir` is
 * read through a symbolic link (`outDir` itself may be one: the user chose it).
 */
export async function openFolderView(outDir: string): Promise<FolderView> {
  // A damaged journal is an error here too, so `check` never reports such a folder as in sync;
  // a failed read is a transaction folder that a live run removes meanwhile.
  const journal = await readJournal(outDir).catch((error: unknown) => {
    if (error instanceof WriteError) throw error;
    return undefined;
  });
  const writes = new Set(journal ? journal.writes : []);
  const deletes = new Set(journal ? journal.deletes : []);
  const outDirPrefix = join(outDir, sep);
  const onDisk = (path: string) => outDirPrefix + path.split('/').join(sep);
  // Synchronous: cheaper than the promise API per small file.
  const readOrUndefined = async (file: string): Promise<Buffer | undefined> => {
    try {
      return readFileNoFollow(file);
    } catch (error) {
      return absentOrThrow(error, file);
    }
  };
  // The symbolic link on the way to each folder inside outDir (null: none), looked up once per view.
  const folderLinks = new Map<string, string | null>();
  const linkOnTheWay = (path: string): string | null => {
    const slash = path.lastIndexOf('/');
    if (slash < 0) return null;
    const folder = path.slice(0, slash);
    let link = folderLinks.get(folder);
    if (link === undefined) {
      link = linkOnTheWay(folder) ?? (isSymbolicLink(onDisk(folder)) ? folder : null);
      folderLinks.set(folder, link);
    }
    return link;
  };
  const pending = journal !== undefined && journal !== null;
  const empty = !pending && isEmptyFolder(outDir);
  return {
    pending,
    empty,
    pathOnDisk(path) {
      // Concatenation, not join(): paths here are plain relative posix paths (checked when the
      // manifest is read), so there is nothing to normalise.
      return writes.has(path) || deletes.has(path) || linkOnTheWay(path) !== null ? undefined : `${outDir}/${path}`;
    },
    async read(path) {
      if (empty) return undefined;
      if (writes.has(path)) {
        const prepared = await readOrUndefined(pendingFilePath(outDir, path));
        if (prepared) return prepared;
      } else if (deletes.has(path)) {
        return undefined;
      }
      const link = linkOnTheWay(path);
      if (link !== null) throw new SymbolicLinkFound([link], outDir);
      try {
        return readFileNoFollow(onDisk(path));
      } catch (error) {
        if (isLinkRefusal(error)) throw new SymbolicLinkFound([path], outDir);
        return absentOrThrow(error, onDisk(path));
      }
    },
    files() {
      if (empty) return [];
      const found = new Set(listFiles(outDir).filter((path) => !deletes.has(path)));
      for (const path of writes) found.add(path);
      return [...found];
    },
    async readLockfile(path) {
      if (journal && journal.lockfile === path) {
        const prepared = await readOrUndefined(pendingLockfilePath(outDir, journal));
        if (prepared) return prepared.toString('utf8');
      }
      try {
        // A regular file only, read against its bound: a FIFO or device there would hang or never end.
        return withoutBom((await readBoundedFile(path, { maxBytes: READ_BOUNDS.lockfile })).toString('utf8'));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw new LockError(msg`cannot read lockfile ${path}: ${error instanceof FileRefused ? own(error.reason) : (error as Error).message}`, {
          hint: msg`Check the --lockfile path and its permissions; a lockfile is a regular file.`,
          cause: error,
        });
      }
    },
  };
}

/**
 * Undefined for a file that is not there; any other failure to read it is an error, never taken
 * for "no such file": an unreadable manifest read as none would leave a removed type's file
 * behind unmanaged, and `check` would call the folder in sync.
 */
function absentOrThrow(error: unknown, file: string): undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
  const why = code === 'EISDIR' ? own('it is a folder') : code === 'EACCES' || code === 'EPERM' ? own('permission denied') : isLinkRefusal(error) ? own('it is a symbolic link, which is never followed') : (error as Error).message;
  throw new WriteError(msg`cannot read ${file}: ${why}.`, {
    hint: code === 'EACCES' || code === 'EPERM'
      ? msg`It may belong to another user (e.g. after a run under sudo): give it back (chown) or delete it, then run again.`
      : msg`Move it away or delete it, then run again.`,
    cause: error,
  });
}

/** Whether `path` is a symbolic link; a folder that cannot be looked at is left to the read to report. */
function isSymbolicLink(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true;
  } catch {
    return false;
  }
}

/** Names in an output folder that are a run's, not the output's. */
const RUN_FILES: ReadonlySet<string> = new Set([RUN_LOCK_FILE, TXN_DIR]);

/** Whether a name at the top of an output folder is a run's: its lock, its transaction folder, the lock of a lockfile kept there. */
function isRunFile(name: string): boolean {
  return RUN_FILES.has(name) || (name.startsWith('.') && name.endsWith(LOCKFILE_LOCK_SUFFIX));
}

/** Whether `outDir` does not exist or holds nothing but a run's lock and transaction folder. */
function isEmptyFolder(outDir: string): boolean {
  try {
    return readdirSync(outDir).every(isRunFile);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** Every plain file under `outDir` (posix paths) but a run's own and those in hidden folders and `node_modules`, never through a link. */
function listFiles(outDir: string): string[] {
  const files: string[] = [];
  const walk = (folder: string, prefix: string) => {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch (error) {
      absentOrThrow(error, folder);
      return;
    }
    for (const entry of entries) {
      if (prefix === '' && isRunFile(entry.name)) continue;
      const path = prefix + entry.name;
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && entry.name !== 'node_modules') walk(join(folder, entry.name), `${path}/`);
      } else if (entry.isFile()) {
        files.push(path);
      }
    }
  };
  walk(outDir, '');
  return files;
}

/**
 * A stamp of the output folder and the lockfile (their stats): every run that writes either
 * changes it (it creates its transaction folder in the folder, and renames the lockfile into
 * place), so equal stamps before and after reading them mean no run wrote meanwhile.
 */
export function folderStamp(outDir: string, lockfilePath: string): string {
  const stamp = (path: string) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat === undefined ? '-' : `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
  };
  return `${stamp(outDir)} ${stamp(lockfilePath)}`;
}

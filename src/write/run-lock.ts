import { rmSync } from 'node:fs';
import { lstat, mkdir, open, readFile, rm, rmdir, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LockError, WriteError } from '../model/errors.js';
import { readFileNoFollow } from '../util/read-no-follow.js';
import { writeFailure } from './target-checks.js';
import { msg, own, type Message } from '../model/message.js';

/** Lock file inside the output folder while a run writes there. */
export const RUN_LOCK_FILE = '.schema-sync-run.lock';

/** How long a second run waits for the first. @default 30000 */
export const DEFAULT_LOCK_WAIT_MS = 30_000;

/** What the name of a lockfile's own lock ends with (see {@link lockfileLockPath}). */
export const LOCKFILE_LOCK_SUFFIX = '.schema-sync-lock';

/** Options of the run's locks. */
export interface LockOptions {
  /** How long to wait for a live run's lock. @default 30000 */
  waitMs?: number;
  /** Aborted by SIGINT/SIGTERM: the wait ends with its reason. */
  interrupt?: AbortSignal;
}

/** The errors of a lock that cannot be made because its folder is not the user's to write. */
const UNWRITABLE: ReadonlySet<string | undefined> = new Set(['EACCES', 'EPERM', 'EROFS']);

/**
 * Takes the output folder's run lock, so two runs never interleave their writes. A second run
 * waits up to `waitMs`, then fails; a lock whose process is gone (killed run) is taken over.
 * Returns the release function. A process that ends while it holds the lock (a second Ctrl-C
 * ends it at once, see cli/bin.ts) removes it on the way out: its work is then either not
 * committed (the next run discards it) or rolled forward already (that takes no await).
 */
export async function acquireRunLock(outDir: string, options: LockOptions = {}): Promise<() => Promise<void>> {
  const file = join(outDir, RUN_LOCK_FILE);
  return takeLock(file, outDir, options, (holder) => ({
    what: msg`another schema-sync is running on ${outDir} (process ${holder || own('unknown')}).`,
    hint: msg`Wait for it to finish. If no other run exists, delete ${file}.`,
  }));
}

/**
 * Where the lock of the lockfile at `lockfilePath` is: beside it, a hidden file of its name (as
 * `.schema-sync.lock.json.schema-sync-lock`), there only while a run holds it.
 */
export function lockfileLockPath(lockfilePath: string): string {
  return join(dirname(lockfilePath), `.${basename(lockfilePath)}${LOCKFILE_LOCK_SUFFIX}`);
}

/**
 * Takes the lockfile's own lock, as {@link acquireRunLock} takes the output folder's: two output
 * folders that share one lockfile never both read it before either wrote it (the second would
 * overwrite the first one's update unseen). A run takes it after its folder's lock, always in
 * that order, so two runs never wait for each other. Same wait, takeover and release.
 */
export async function acquireLockfileLock(lockfilePath: string, options: LockOptions = {}): Promise<() => Promise<void>> {
  const file = lockfileLockPath(lockfilePath);
  // A lockfile in a folder this user cannot write (generate from a read-only checkout) is read
  // only: no run of this user can replace it there either, so there is nothing to lock.
  return takeLock(file, dirname(lockfilePath), { ...options, unlockedWhenUnwritable: true }, (holder) => ({
    what: msg`another schema-sync run is writing the lockfile ${lockfilePath} (process ${holder || own('unknown')}), for another output folder that shares it.`,
    hint: msg`Wait for it to finish, or give it longer with --lock-wait. If no other run exists, delete ${file}. Output folders that share a lockfile each follow the last pull: give each its own --lockfile unless they are meant to.`,
  }));
}

/** Takes the lock at `file`, making `folder` (its folder) first when it is missing; `busy` words the error of a wait that ran out. */
async function takeLock(
  file: string,
  folder: string,
  options: LockOptions & { unlockedWhenUnwritable?: boolean },
  busy: (holder: string) => { what: Message; hint: Message },
): Promise<() => Promise<void>> {
  const waitMs = options.waitMs ?? DEFAULT_LOCK_WAIT_MS;
  const unwritable = (error: unknown) => options.unlockedWhenUnwritable === true && UNWRITABLE.has((error as NodeJS.ErrnoException).code);
  // The folders made just for the lock go again with it when the run left nothing there.
  let made: string | undefined;
  try {
    made = await mkdir(folder, { recursive: true });
  } catch (error) {
    if (unwritable(error)) return async () => undefined;
    throw writeFailure(error, folder);
  }
  const deadline = Date.now() + waitMs;
  const owner = `${process.pid}@${hostname()}`;
  for (;;) {
    let handle: Awaited<ReturnType<typeof open>> | undefined;
    try {
      handle = await open(file, 'wx');
      await handle.writeFile(owner);
      await handle.close();
      // Release only our own lock: never one another run took over meanwhile.
      const releaseOnExit = () => {
        if (holds(file, owner)) rmSync(file, { force: true });
      };
      process.on('exit', releaseOnExit);
      return async () => {
        try {
          if ((await readFile(file, 'utf8').catch(() => undefined)) === owner) await rm(file, { force: true });
        } finally {
          process.off('exit', releaseOnExit);
        }
        if (made !== undefined) await removeEmptyFolders(folder, made);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        // Created but not filled (a full disk): an empty lock would hold up the next run.
        if (handle !== undefined) {
          await handle.close().catch(() => undefined);
          await rm(file, { force: true });
        } else if (unwritable(error)) {
          return async () => undefined;
        }
        throw writeFailure(error, file);
      }
    }
    // Every turn of the loop answers the signals, whatever it finds.
    options.interrupt?.throwIfAborted();
    const holder = await readHolder(file);
    if (await isStaleLock(file, holder)) {
      // Taken over at once, also with no wait allowed; a lock that cannot be judged never gets here.
      await removeStaleLock(file, holder);
      continue;
    }
    if (Date.now() >= deadline) {
      const { what, hint } = busy(holder);
      throw new WriteError(what, { hint });
    }
    await sleep(100);
  }
}

/**
 * Removes `outDir` and its parents up to `made` (the outermost folder this run created), innermost
 * first, each only while it is empty: a failed or interrupted first run leaves no empty folders, and
 * a folder that holds anything (something another program put there meanwhile) is kept, with its parents.
 */
async function removeEmptyFolders(outDir: string, made: string): Promise<void> {
  for (let dir = outDir; dir.startsWith(made); dir = dirname(dir)) {
    const removed = await rmdir(dir).then(
      () => true,
      () => false,
    );
    if (!removed || dir === made) return;
  }
}

/** Whether the lock at `file` is still the one `owner` took; synchronous, for the 'exit' event. */
function holds(file: string, owner: string): boolean {
  try {
    return readFileNoFollow(file).toString('utf8') === owner;
  } catch {
    return false;
  }
}

/**
 * Who holds the run lock (`pid@host`; empty while it is being written or when it is gone). A
 * lock that is a symbolic link or no file, or that cannot be read, was not made by a run of
 * this user: it can neither be judged nor taken over, so it is an error at once (reading such a
 * lock as empty made runs take it for stale, fail to remove it, and try again without pause).
 * @throws LockError naming the file and what to do
 */
async function readHolder(file: string): Promise<string> {
  const stats = await lstat(file).catch(() => undefined);
  if (stats === undefined) return '';
  const hint = msg`schema-sync's run lock is a plain file each run makes and removes itself. If no schema-sync runs on this folder, delete it: rm ${file}`;
  if (stats.isSymbolicLink() || !stats.isFile()) {
    throw new LockError(msg`the run lock ${file} is ${own(stats.isSymbolicLink() ? 'a symbolic link' : 'not a file')}, which schema-sync never makes (a checkout or another program put it there).`, { hint });
  }
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return '';
    throw new LockError(msg`cannot read the run lock ${file} (${code ?? (error as Error).message}): it belongs to another user, e.g. a run under sudo.`, {
      hint: msg`If no schema-sync runs on this folder, delete it as that user (sudo rm ${file}); then run schema-sync as one user.`,
      cause: error,
    });
  }
}

/**
 * Waits, at most `waitMs`, while a live run holds the output folder's lock, without taking it
 * (so `check`, which writes nothing, can let a run finish what it committed). `'free'`: no live
 * run held it; `'released'`: one did and let it go; `'held'`: one still holds it.
 */
export async function waitForLiveRun(outDir: string, waitMs = DEFAULT_LOCK_WAIT_MS): Promise<'free' | 'released' | 'held'> {
  const file = join(outDir, RUN_LOCK_FILE);
  const deadline = Date.now() + waitMs;
  for (let waited = false; ; waited = true) {
    const holder = await readFile(file, 'utf8').catch(() => undefined);
    if (holder === undefined || (await isStaleLock(file, holder))) return waited ? 'released' : 'free';
    if (Date.now() >= deadline) return 'held';
    await sleep(20);
  }
}

/** How long an empty lock (a run killed between creating and filling it) or a takeover guard may stay. */
const ABANDONED_MS = 5_000;

/** A lock is stale when its process is gone, or when it has stayed empty for seconds. */
async function isStaleLock(file: string, holder: string): Promise<boolean> {
  // An empty lock is one being written right now, unless it has stayed empty for seconds.
  if (holder.trim() === '') {
    const stats = await stat(file).catch(() => undefined);
    // Gone already (released meanwhile): nothing to wait for.
    return stats === undefined || Date.now() - stats.mtimeMs > ABANDONED_MS;
  }
  return isStale(holder);
}

/**
 * Removes a stale lock, but only if it is still the one judged stale. Two runs that find the
 * same stale lock must not both remove "it": the second would delete the fresh lock the first
 * has just taken, and both would write. So the re-check and the removal happen under a guard
 * file created exclusively; a run that cannot get the guard simply tries again.
 */
async function removeStaleLock(file: string, holder: string): Promise<void> {
  const guard = `${file}.takeover`;
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(guard, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new WriteError(msg`cannot create ${guard}: ${(error as Error).message}`, { cause: error });
    }
    // Another run is taking over right now, or one was killed doing so long ago.
    const age = Date.now() - ((await lstat(guard).catch(() => undefined))?.mtimeMs ?? Date.now());
    if (age > ABANDONED_MS) await rm(guard, { force: true });
    else await sleep(20);
    return;
  }
  try {
    const again = await readFile(file, 'utf8').catch(() => undefined);
    if (again === holder && (await isStaleLock(file, again))) await rm(file, { force: true });
  } finally {
    await handle.close().catch(() => undefined);
    await rm(guard, { force: true });
  }
}

/** A lock is stale when its process, on this host, no longer exists. */
function isStale(holder: string): boolean {
  const match = /^(\d+)@(.*)$/.exec(holder.trim());
  if (!match) return holder.trim() !== '';
  if (match[2] !== hostname()) return false;
  try {
    process.kill(Number(match[1]), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

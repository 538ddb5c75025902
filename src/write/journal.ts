import { existsSync, mkdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { dirname, join } from 'node:path';
import { WriteError } from '../model/errors.js';
import { isSafeRelativePath } from './manifest.js';
import { checkTargets, writeFailure } from './target-checks.js';

/**
 * A run's changes are prepared in a transaction folder, committed by one rename of a journal
 * file, then moved into place. A run killed before the commit leaves only a transaction folder,
 * which the next run discards; one killed after it leaves a journal, which the next run replays
 * (as a database replays its log).
 * Either way the next command sees the folder and lockfile wholly before or wholly after.
 */

/** Folder inside the output folder that holds a run's prepared files and its journal. */
export const TXN_DIR = '.schema-sync-txn';
/** The journal file in the transaction folder; its presence is the commit point. */
export const JOURNAL = 'journal.json';
/** Folder inside the transaction folder that holds the prepared files. */
const TXN_FILES = 'files';
const TXN_LOCKFILE = 'lockfile';
/** The transaction folder's name up to schema-sync 0.1; a run of one may have left it. */
const LEGACY_TXN_DIR = '.schema-sync-staging';

/**
 * Where `outDir`'s transaction folder is: `TXN_DIR`, or the folder schema-sync 0.1 named
 * otherwise when only that one exists (an upgrade right after an interrupted 0.1 run), so that
 * read-only views see its journal too. {@link recoverPending} moves it to `TXN_DIR`.
 */
function txnDirOf(outDir: string): string {
  const current = join(outDir, TXN_DIR);
  const legacy = join(outDir, LEGACY_TXN_DIR);
  return !existsSync(current) && existsSync(legacy) ? legacy : current;
}

/** What a committed run will do. */
export interface Journal {
  version: 1;
  /** Paths relative to the output folder, prepared under `files/`. */
  writes: string[];
  /** Paths relative to the output folder to delete. */
  deletes: string[];
  /** Absolute lockfile path, prepared as `lockfile`, when the run updates it. */
  lockfile?: string;
}

/** One set of changes to make at once. */
export interface Transaction {
  writes: ReadonlyArray<{ path: string; text: string }>;
  deletes: readonly string[];
  lockfile?: { path: string; text: string };
}

/**
 * Prepares, commits and applies a transaction; call with the run lock held. Anything that fails
 * before the commit point (a full disk, a folder that cannot be written) removes the transaction folder and
 * is a WriteError: the run changed nothing.
 */
export async function commitTransaction(outDir: string, tx: Transaction, interrupt?: AbortSignal): Promise<void> {
  if (tx.writes.length === 0 && tx.deletes.length === 0 && !tx.lockfile) return;
  const txnDir = join(outDir, TXN_DIR);
  try {
    checkTargets(outDir, { paths: [...tx.writes.map((w) => w.path), ...tx.deletes], lockfile: tx.lockfile?.path });
    await rm(txnDir, { recursive: true, force: true });
    await mkdir(join(txnDir, TXN_FILES), { recursive: true });
    for (const dir of new Set(tx.writes.map((w) => dirname(join(txnDir, TXN_FILES, w.path))))) mkdirSync(dir, { recursive: true });
    await inChunks(tx.writes, (w) => writeFileSync(join(txnDir, TXN_FILES, w.path), w.text));
    if (tx.lockfile) await writeFile(join(txnDir, TXN_LOCKFILE), tx.lockfile.text);
  } catch (error) {
    await rm(txnDir, { recursive: true, force: true }).catch(() => undefined);
    throw error instanceof WriteError ? error : writeFailure(error, txnDir);
  }
  const journal: Journal = {
    version: 1,
    writes: tx.writes.map((w) => w.path),
    deletes: [...tx.deletes],
    ...(tx.lockfile ? { lockfile: tx.lockfile.path } : {}),
  };
  try {
    await writeFile(join(txnDir, `${JOURNAL}.tmp`), JSON.stringify(journal));
    // Interrupted before the commit point: the run never happened.
    interrupt?.throwIfAborted();
  } catch (error) {
    await rm(txnDir, { recursive: true, force: true }).catch(() => undefined);
    throw interrupt?.aborted ? interrupt.reason : writeFailure(error, txnDir);
  }
  // The commit point: before this rename the run never happened, after it the run will finish.
  await rename(join(txnDir, `${JOURNAL}.tmp`), join(txnDir, JOURNAL));
  await applyJournal(outDir, journal);
}

/**
 * Finishes or discards what an interrupted run left: replays a committed journal, removes
 * uncommitted transaction folder. Call with the run lock held, before reading the folder.
 */
export async function recoverPending(outDir: string, lockfilePath: string): Promise<'none' | 'replayed' | 'discarded'> {
  const found = txnDirOf(outDir);
  if (found !== join(outDir, TXN_DIR)) await rename(found, join(outDir, TXN_DIR));
  const journal = await readJournal(outDir);
  if (journal === undefined) return 'none';
  if (journal === null) {
    await rm(join(outDir, TXN_DIR), { recursive: true, force: true });
    return 'discarded';
  }
  if (journal.lockfile !== undefined && journal.lockfile !== lockfilePath) {
    throw new WriteError(`${join(outDir, TXN_DIR, JOURNAL)} names the lockfile ${journal.lockfile}, not this project's ${lockfilePath}; schema-sync will not replay it.`, {
      hint: `If no schema-sync run of another project shares this output folder, delete ${join(outDir, TXN_DIR)} and run schema-sync generate.`,
    });
  }
  checkTargets(outDir, { paths: [...journal.writes, ...journal.deletes] });
  await applyJournal(outDir, journal);
  return 'replayed';
}

/**
 * The committed journal, if any: `undefined` when there is no transaction folder, `null` when there
 * is one without a committed journal (a run died before its commit point).
 */
export async function readJournal(outDir: string): Promise<Journal | null | undefined> {
  const txnDir = txnDirOf(outDir);
  let text: string;
  try {
    text = await readFile(join(txnDir, JOURNAL), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const exists = await readFile(txnDir).then(() => true, (e: NodeJS.ErrnoException) => e.code === 'EISDIR');
    return exists ? null : undefined;
  }
  const journal = parseJournal(text);
  if (journal === undefined) {
    throw new WriteError(`${join(txnDir, JOURNAL)} is damaged.`, {
      hint: `Delete ${txnDir} and run schema-sync generate to rebuild the folder from the lockfile.`,
    });
  }
  return journal;
}

/** A journal's text as schema-sync writes it (plain paths inside the folder only); undefined for anything else. */
function parseJournal(text: string): Journal | undefined {
  let journal: Partial<Journal> | null;
  try {
    journal = JSON.parse(text) as Partial<Journal> | null;
  } catch {
    return undefined;
  }
  const paths = (list: unknown) => Array.isArray(list) && list.every((path) => typeof path === 'string' && isSafeRelativePath(path));
  const lockfile = journal?.lockfile;
  if (journal?.version !== 1 || !paths(journal.writes) || !paths(journal.deletes) || (lockfile !== undefined && typeof lockfile !== 'string')) return undefined;
  return journal as Journal;
}

/** Where a pending journal's prepared copy of `path` is (for read-only views). */
export function pendingFilePath(outDir: string, path: string): string {
  return join(txnDirOf(outDir), TXN_FILES, path);
}

/** Where a pending journal's prepared lockfile is. */
export function pendingLockfilePath(outDir: string): string {
  return join(txnDirOf(outDir), TXN_LOCKFILE);
}

async function applyJournal(outDir: string, journal: Journal): Promise<void> {
  const txnDir = join(outDir, TXN_DIR);
  for (const dir of new Set(journal.writes.map((p) => dirname(join(outDir, p))))) mkdirSync(dir, { recursive: true });
  // A prepared file already gone was moved before an interruption: replaying is idempotent.
  await inChunks(journal.writes, (p) => ignoreMissingSync(() => renameSync(join(txnDir, TXN_FILES, p), join(outDir, p))));
  await inChunks(journal.deletes, (p) => ignoreMissingSync(() => unlinkSync(join(outDir, p))));
  if (journal.lockfile) await ignoreMissing(moveFile(join(txnDir, TXN_LOCKFILE), journal.lockfile));
  await rm(txnDir, { recursive: true, force: true });
}

async function moveFile(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    // Lockfile on another file system: copy beside the target, then rename there.
    const temp = `${to}.${process.pid}.tmp`;
    await copyFile(from, temp);
    await rename(temp, to);
    await unlink(from);
  }
}

async function ignoreMissing(work: Promise<unknown>): Promise<void> {
  try {
    await work;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function ignoreMissingSync(work: () => void): void {
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
async function inChunks<T>(items: readonly T[], work: (item: T) => void, size = 500): Promise<void> {
  for (let i = 0; i < items.length; i += size) {
    for (const item of items.slice(i, i + size)) work(item);
    if (i + size < items.length) await yieldToEventLoop();
  }
}

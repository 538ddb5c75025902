import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { WriteError } from '../model/errors.js';
import { hashOf } from '../util/hash.js';
import { isLinkRefusal, readFileNoFollow } from '../util/read-no-follow.js';
import { holdsWritten } from './change-set.js';
import { MANIFEST_FILE, parseManifest } from './manifest.js';
import { isSafeRelativePath } from './safe-path.js';
import { ignoreMissing, inChunks, moveFile } from './file-moves.js';
import { SymbolicLinkFound } from './symbolic-link-found.js';
import { checkTargets, writeFailure } from './target-checks.js';
import { inspectTxnEntry, inspectTxnTree, txnFolderIdentity } from './txn-folder.js';
import { writtenWithBanner, type StaleOutput } from './stray-files.js';
import { msg, own, type Message } from '../model/message.js';

/**
 * A run's changes are prepared in a transaction folder, committed by one rename of a journal
 * file, then moved into place. A run killed before the commit leaves only a transaction folder,
 * which the next run discards; one killed after it leaves a journal, which the next run replays
 * (as a database replays its log).
 * Either way the next command sees the folder and lockfile wholly before or wholly after.
 *
 * What a repository carries in the output folder is not trusted: a transaction folder is read
 * only when schema-sync could have made it (see txn-folder.ts), a journal is replayed only in the
 * very folder the run made (its identity recorded in it) and over the lockfile and manifest it
 * was made from, a delete only removes a file that still holds the
 * bytes the manifest records, and a prepared lockfile moves in only when it is the one the
 * journal names by hash.
 */

/** Folder inside the output folder that holds a run's prepared files and its journal. */
export const TXN_DIR = '.schema-sync-txn';
/** The journal file in the transaction folder; its presence is the commit point. */
export const JOURNAL = 'journal.json';
/** Folder inside the transaction folder that holds the prepared files. */
export const TXN_FILES = 'files';
const TXN_LOCKFILE = 'lockfile';
/** The transaction folder's name up to schema-sync 0.1; a run of one may have left it. */
const LEGACY_TXN_DIR = '.schema-sync-staging';

/** What a committed run will do, and the state of the folder and lockfile it was made from. */
export interface Journal {
  version: 3;
  /**
   * The identity of the transaction folder the run made (`txnFolderIdentity`, taken once it was
   * made, before the commit point): a journal is replayed only in that folder. A copy of one, or
   * one a checkout brought (a committed journal with correct hashes), is another folder.
   */
  folder: string;
  /**
   * Hashes of the lockfile's and the manifest's bytes when the run prepared its changes (null:
   * none): a journal is replayed only over that state (or the one it leaves), never over the
   * state of another branch or a later run.
   */
  base: { lockfile: string | null; manifest: string | null };
  /** Paths relative to the output folder, prepared under `files/`. */
  writes: string[];
  /** Paths relative to the output folder to delete, when they still hold the bytes the base manifest records. */
  deletes: string[];
  /** Stale output no manifest names (see stray-files.ts) to delete, each while it still holds the bytes of hash `sha`. */
  stale?: StaleOutput[];
  /** Hash of the manifest the run writes, when it writes one. */
  manifest?: string;
  /** Absolute lockfile path, prepared as `lockfile`, when the run updates it. */
  lockfile?: string;
  /** Hash of the prepared lockfile's bytes, with `lockfile`. */
  lockfileSha?: string;
  /**
   * The lockfile is prepared beside itself ({@link besideLockfile}), not in the transaction
   * folder: it lives on another file system, where moving it in after the commit point could
   * run out of space.
   */
  lockfileBeside?: true;
}

/** One set of changes to make at once. */
export interface Transaction {
  /** Files to write: their text, as a string or as UTF-8 bytes. */
  writes: ReadonlyArray<{ path: string; text: string | Uint8Array }>;
  /** Files to write that are prepared in the transaction folder already (see staging.ts), which is then kept. */
  staged?: readonly string[];
  /** Generated files to delete: each only while it holds the bytes the folder's manifest records. */
  deletes: readonly string[];
  /** Stale output to delete: each only while it holds the bytes it was judged stale by. */
  stale?: readonly StaleOutput[];
  /** The lockfile to write (its `hashOf` when known). */
  lockfile?: { path: string; text: string; hash?: string };
  /** The project's lockfile, whose state the journal records even when the run leaves it alone. */
  lockfilePath: string;
}

/**
 * Prepares, commits and applies a transaction; call with the run lock held. Anything that fails
 * before the commit point (a full disk, a folder that cannot be written) removes the transaction folder and
 * is a WriteError: the run changed nothing. Gives the deletes left in place because the file was
 * edited since the folder's manifest recorded it.
 */
export async function commitTransaction(outDir: string, tx: Transaction, interrupt?: AbortSignal): Promise<{ kept: string[] }> {
  const stale = tx.stale ?? [];
  if (tx.writes.length === 0 && (tx.staged ?? []).length === 0 && tx.deletes.length === 0 && stale.length === 0 && !tx.lockfile) return { kept: [] };
  const txnDir = join(outDir, TXN_DIR);
  let journal: Journal;
  let baseManifest: Buffer | undefined;
  let beside = false;
  const removePrepared = async () => {
    await rm(txnDir, { recursive: true, force: true }).catch(() => undefined);
    if (beside) await rm(besideLockfile(tx.lockfile!.path), { force: true }).catch(() => undefined);
  };
  try {
    const staged = tx.staged ?? [];
    checkTargets(outDir, { paths: [...staged, ...tx.writes.map((w) => w.path), ...tx.deletes, ...stale.map((file) => file.path)], lockfile: tx.lockfile?.path });
    // Space on the lockfile's file system is taken before the commit point, not after it.
    beside = tx.lockfile !== undefined && deviceOf(outDir) !== deviceOf(dirname(tx.lockfile.path));
    baseManifest = readIfPresent(join(outDir, MANIFEST_FILE), readFileNoFollow);
    const manifest = tx.writes.find((w) => w.path === MANIFEST_FILE);
    if (staged.length === 0) await rm(txnDir, { recursive: true, force: true });
    await mkdir(join(txnDir, TXN_FILES), { recursive: true });
    journal = {
      version: 3,
      folder: txnFolderIdentity(txnDir),
      base: { lockfile: hashOrNull(readIfPresent(tx.lockfilePath)), manifest: hashOrNull(baseManifest) },
      writes: [...staged, ...tx.writes.map((w) => w.path)],
      deletes: [...tx.deletes],
      ...(stale.length > 0 ? { stale: stale.map(({ path, sha }) => ({ path, sha })) } : {}),
      ...(manifest ? { manifest: hashOf(manifest.text) } : {}),
      ...(tx.lockfile ? { lockfile: tx.lockfile.path, lockfileSha: tx.lockfile.hash ?? hashOf(tx.lockfile.text) } : {}),
      ...(beside ? { lockfileBeside: true as const } : {}),
    };
    for (const dir of new Set(tx.writes.map((w) => dirname(join(txnDir, TXN_FILES, w.path))))) mkdirSync(dir, { recursive: true });
    await inChunks(tx.writes, (w) => writeFileSync(join(txnDir, TXN_FILES, w.path), w.text));
    if (tx.lockfile) {
      // Whatever is found at that path is not written through (a symbolic link is removed, not followed).
      if (beside) await rm(pendingLockfilePath(outDir, journal), { force: true });
      await writeNewText(pendingLockfilePath(outDir, journal), tx.lockfile.text);
    }
  } catch (error) {
    await removePrepared();
    throw error instanceof WriteError ? error : writeFailure(error, txnDir);
  }
  try {
    await writeFile(join(txnDir, `${JOURNAL}.tmp`), JSON.stringify(journal));
    // Interrupted before the commit point: the run never happened.
    interrupt?.throwIfAborted();
  } catch (error) {
    await removePrepared();
    throw interrupt?.aborted ? interrupt.reason : writeFailure(error, txnDir);
  }
  // The commit point: before this rename the run never happened, after it the run will finish.
  // From here on nothing awaits: a signal (even a second Ctrl-C, which ends the process at
  // once) is only taken once the roll-forward is done.
  renameSync(join(txnDir, `${JOURNAL}.tmp`), join(txnDir, JOURNAL));
  return { kept: applyJournal(outDir, journal, baseManifest).map((file) => file.path) };
}

/** What {@link recoverPending} did with what an interrupted run left. */
export type Recovery = 'none' | 'replayed' | 'discarded';

/**
 * Finishes or discards what an interrupted run left: replays a committed journal made from the
 * folder and lockfile as they are now, discards one made from another state (saying so through
 * `warn`), removes an uncommitted transaction folder. Call with the run lock held, before reading
 * the folder.
 *
 * @throws WriteError for a transaction folder schema-sync could not have made, or a journal that
 * names another project's lockfile or a prepared lockfile other than the one it holds.
 */
export async function recoverPending(outDir: string, lockfilePath: string, warn: (text: Message) => void = () => undefined): Promise<Recovery> {
  const txnDir = join(outDir, TXN_DIR);
  const legacy = join(outDir, LEGACY_TXN_DIR);
  if (lstatSync(legacy, { throwIfNoEntry: false }) !== undefined) {
    // Its journal records no state it was made from, so it cannot be told to belong here.
    await rm(legacy, { recursive: true, force: true });
    warn(msg`${legacy}, left by an interrupted run of schema-sync 0.1, was discarded, not replayed; generate rebuilds the folder from the lockfile.`);
  }
  const found = loadJournal(outDir);
  if (found === 'none') return 'none';
  if (found === 'uncommitted' || found === 'outdated' || found === 'foreign') {
    await discard(outDir, lockfilePath);
    if (found === 'outdated') warn(msg`${join(txnDir, JOURNAL)} was written by an older schema-sync and cannot be told to belong here: discarded, not replayed.`);
    if (found === 'foreign') {
      warn(msg`${join(txnDir, JOURNAL)} was not made in this transaction folder (a copy or a checkout brought it: a run records the folder it made): discarded, not replayed.`);
    }
    return 'discarded';
  }
  const journal = found;
  if (journal.lockfile !== undefined && journal.lockfile !== lockfilePath) {
    throw new WriteError(msg`${join(txnDir, JOURNAL)} names the lockfile ${journal.lockfile}, not this project's ${lockfilePath}; schema-sync will not replay it.`, {
      hint: msg`If no schema-sync run of another project shares this output folder, delete ${txnDir} and run schema-sync generate.`,
    });
  }
  const lockfileNow = hashOrNull(readIfPresent(lockfilePath));
  const manifestNow = readIfPresent(join(outDir, MANIFEST_FILE), readFileNoFollow);
  const lockfileOk = lockfileNow === journal.base.lockfile || (journal.lockfileSha !== undefined && lockfileNow === journal.lockfileSha);
  const manifestOk = hashOrNull(manifestNow) === journal.base.manifest || (journal.manifest !== undefined && hashOrNull(manifestNow) === journal.manifest);
  if (!lockfileOk || !manifestOk) {
    await discard(outDir, lockfilePath);
    warn(
      msg`${join(txnDir, JOURNAL)} was made from another state of the ${own(lockfileOk ? 'output folder' : 'lockfile')} (e.g. before a git checkout): discarded, not replayed.`,
    );
    return 'discarded';
  }
  if (journal.lockfile !== undefined && lockfileNow !== journal.lockfileSha) checkPreparedLockfile(outDir, journal);
  checkTargets(outDir, { paths: [...journal.writes, ...journal.deletes, ...(journal.stale ?? []).map((file) => file.path)] });
  // Deletes go before the manifest moves: once it has, they are done.
  const base = hashOrNull(manifestNow) === journal.base.manifest ? manifestNow : undefined;
  for (const kept of applyJournal(outDir, journal, base)) warn(kept.generated ? editedWarning(kept.path) : notGeneratedWarning(kept.path));
  return 'replayed';
}

/** The warning for a generated file of a removed type that was edited since: kept. */
export function editedWarning(path: string): Message {
  return msg`${path} belonged to a message type that is gone, but was edited by hand: left in place, no longer managed by schema-sync.`;
}

/** The warning for a file the folder's manifest names that schema-sync did not write (no banner, or a name it never writes): kept. */
export function unmarkedWarning(path: string): Message {
  return msg`${path} is named by the folder's manifest, but is not a file schema-sync generated (${own(writtenWithBanner(path) ? 'it does not begin with its banner' : 'schema-sync writes no file of that name')}): left in place, and no longer in the manifest.`;
}

/** The warning for a journal's delete of a file the folder's manifest does not name (schema-sync never wrote it): refused. */
function notGeneratedWarning(path: string): Message {
  return msg`${path} is not a file schema-sync generated (the folder's manifest does not name it): the delete was refused, and it was left in place.`;
}

/** A prepared lockfile is moved into place only when it is the one the journal names by hash, and parses. */
function checkPreparedLockfile(outDir: string, journal: Journal): void {
  const txnDir = join(outDir, TXN_DIR);
  const prepared = pendingLockfilePath(outDir, journal);
  const bytes = inspectTxnEntry(prepared, 'file', 'the prepared lockfile') === 'file' ? readFileSync(prepared) : undefined;
  if (bytes !== undefined && hashOf(bytes) === journal.lockfileSha && parsesAsObject(bytes)) return;
  throw new WriteError(msg`${prepared} is not the lockfile ${join(txnDir, JOURNAL)} names; schema-sync will not replay it.`, {
    hint: msg`Delete ${txnDir} and run schema-sync generate to rebuild the folder from the lockfile.`,
  });
}

function parsesAsObject(bytes: Buffer): boolean {
  try {
    const parsed: unknown = JSON.parse(bytes.toString('utf8'));
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

/**
 * The committed journal, if any: `undefined` when there is no transaction folder, `null` when there
 * is one without a journal to replay (a run died before its commit point, or an older schema-sync
 * wrote it).
 *
 * @throws WriteError for a transaction folder schema-sync could not have made, or a damaged journal.
 */
export async function readJournal(outDir: string): Promise<Journal | null | undefined> {
  const found = loadJournal(outDir);
  return found === 'none' ? undefined : typeof found === 'string' ? null : found;
}

/**
 * The transaction folder's journal, once the folder is known to be one schema-sync made:
 * `'foreign'` when the journal records another folder than this one (see {@link Journal.folder}).
 */
function loadJournal(outDir: string): Journal | 'none' | 'uncommitted' | 'outdated' | 'foreign' {
  const txnDir = join(outDir, TXN_DIR);
  if (inspectTxnEntry(txnDir, 'folder', 'the transaction folder') === 'absent') return 'none';
  const path = join(txnDir, JOURNAL);
  const journalEntry = inspectTxnEntry(path, 'file', 'the journal');
  inspectTxnEntry(join(txnDir, TXN_FILES), 'folder', 'the prepared files folder');
  inspectTxnTree(txnDir);
  if (journalEntry === 'absent') return 'uncommitted';
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new WriteError(msg`cannot read ${path}: ${(error as Error).message}.`, { hint: msg`Delete ${txnDir} and run schema-sync generate.`, cause: error });
  }
  const journal = parseJournal(text);
  if (journal === undefined) {
    throw new WriteError(msg`${path} is damaged.`, {
      hint: msg`Delete ${txnDir} and run schema-sync generate to rebuild the folder from the lockfile.`,
    });
  }
  if (journal === 'outdated' || journal.folder === txnFolderIdentity(txnDir)) return journal;
  return 'foreign';
}

/** A journal's text as schema-sync writes it (plain paths inside the folder only); undefined for anything else. */
function parseJournal(text: string): Journal | 'outdated' | undefined {
  let journal: (Omit<Partial<Journal>, 'version'> & { version?: unknown }) | null;
  try {
    journal = JSON.parse(text) as Partial<Journal> | null;
  } catch {
    return undefined;
  }
  const paths = (list: unknown) => Array.isArray(list) && list.every((path) => typeof path === 'string' && isSafeRelativePath(path));
  const optional = (value: unknown) => value === undefined || typeof value === 'string';
  const hash = (value: unknown) => value === null || typeof value === 'string';
  // Before version 3 a journal did not record the folder it was made in: it cannot be told to belong here.
  if ((journal?.version === 1 || journal?.version === 2) && paths(journal.writes) && paths(journal.deletes)) return 'outdated';
  if (journal?.version !== 3 || typeof journal.folder !== 'string' || !paths(journal.writes) || !paths(journal.deletes) || !hash(journal.base?.lockfile) || !hash(journal.base?.manifest)) return undefined;
  const stale = (list: unknown) => list === undefined || (Array.isArray(list) && list.every((file: { path?: unknown; sha?: unknown } | null) => typeof file?.sha === 'string' && paths([file.path])));
  if (!stale(journal.stale)) return undefined;
  if (!optional(journal.manifest) || !optional(journal.lockfile) || (journal.lockfile === undefined) !== (journal.lockfileSha === undefined) || !optional(journal.lockfileSha)) return undefined;
  if (journal.lockfileBeside !== undefined && (journal.lockfileBeside !== true || journal.lockfile === undefined)) return undefined;
  return journal as Journal;
}

/** Where a pending journal's prepared copy of `path` is (for read-only views). */
export function pendingFilePath(outDir: string, path: string): string {
  return join(outDir, TXN_DIR, TXN_FILES, path);
}

/** Where a pending journal's prepared lockfile is. */
export function pendingLockfilePath(outDir: string, journal?: Pick<Journal, 'lockfile' | 'lockfileBeside'>): string {
  return journal?.lockfileBeside && journal.lockfile !== undefined ? besideLockfile(journal.lockfile) : join(outDir, TXN_DIR, TXN_LOCKFILE);
}

/** Where a lockfile on another file system than the output folder is prepared: beside itself. */
export function besideLockfile(lockfilePath: string): string {
  return join(dirname(lockfilePath), `.${basename(lockfilePath)}.schema-sync-txn`);
}

/** Removes a transaction that is not to be replayed, with a lockfile it prepared beside the project's. */
async function discard(outDir: string, lockfilePath: string): Promise<void> {
  await rm(join(outDir, TXN_DIR), { recursive: true, force: true });
  const beside = besideLockfile(lockfilePath);
  if (inspectTxnEntry(beside, 'file', 'the prepared lockfile') === 'file') await rm(beside, { force: true });
}

/** A delete a journal's roll-forward left undone, and whether the base manifest names the file (schema-sync generated it, and it was edited since). */
interface KeptFile {
  path: string;
  generated: boolean;
}

/**
 * Moves the prepared files in, deletes those of `deletes` that hold the bytes `baseManifest`
 * records (none without it: they went before the manifest moved), then moves the manifest and
 * the lockfile. Gives the deletes kept: a file edited since, or one the manifest does not name.
 */
function applyJournal(outDir: string, journal: Journal, baseManifest: Buffer | undefined): KeptFile[] {
  const txnDir = join(outDir, TXN_DIR);
  const moved = moveNewFolders(outDir, journal.writes);
  const files = journal.writes.filter((path) => path !== MANIFEST_FILE && !moved.has(topFolderOf(path)));
  for (const dir of new Set(files.map((p) => dirname(join(outDir, p))))) mkdirSync(dir, { recursive: true });
  // A prepared file already gone was moved before an interruption: replaying is idempotent.
  for (const p of files) ignoreMissing(() => renameSync(join(txnDir, TXN_FILES, p), join(outDir, p)));
  const kept: KeptFile[] = [];
  const entries = baseManifest === undefined || journal.deletes.length === 0 ? undefined : parseManifest(baseManifest.toString('utf8'), outDir);
  for (const p of entries === undefined ? [] : journal.deletes) {
    const where = join(outDir, p);
    const stat = lstatSync(where, { throwIfNoEntry: false });
    if (stat === undefined) continue;
    // Only a plain file with the bytes schema-sync wrote: one edited since (even meanwhile) is kept.
    const sha = entries?.get(p)?.sha;
    if (stat.isFile() && sha !== undefined && holdsWritten(readFileNoFollow(where), sha)) ignoreMissing(() => unlinkSync(where));
    else kept.push({ path: p, generated: sha !== undefined });
  }
  for (const { path, sha } of journal.stale ?? []) {
    const where = join(outDir, path);
    // Only while it holds the bytes it was judged stale by: one written meanwhile is the user's.
    if (lstatSync(where, { throwIfNoEntry: false })?.isFile() === true && hashOf(readFileNoFollow(where)) === sha) ignoreMissing(() => unlinkSync(where));
  }
  if (journal.writes.includes(MANIFEST_FILE)) ignoreMissing(() => renameSync(join(txnDir, TXN_FILES, MANIFEST_FILE), join(outDir, MANIFEST_FILE)));
  if (journal.lockfile) ignoreMissing(() => moveFile(pendingLockfilePath(outDir, journal), journal.lockfile!));
  rmSync(txnDir, { recursive: true, force: true });
  return kept;
}

/**
 * Moves in whole each folder at the top of the output (`messages`) that the folder does not hold
 * yet and the transaction prepared: one rename, where a cold pull of 10,000 types would make one
 * a file (bench/README.md). The prepared folder holds only the transaction's files (staging.ts
 * makes it fresh), so what it moves in is exactly what the journal writes there. Idempotent as
 * every step of a roll-forward: a replay after the rename finds the prepared folder gone and the
 * folder in place. Gives the folders moved.
 */
function moveNewFolders(outDir: string, writes: readonly string[]): Set<string> {
  const moved = new Set<string>();
  for (const folder of new Set(writes.map(topFolderOf))) {
    if (folder === '') continue;
    const prepared = join(outDir, TXN_DIR, TXN_FILES, folder);
    if (lstatSync(join(outDir, folder), { throwIfNoEntry: false }) !== undefined) continue;
    if (lstatSync(prepared, { throwIfNoEntry: false })?.isDirectory() !== true) continue;
    renameSync(prepared, join(outDir, folder));
    moved.add(folder);
  }
  return moved;
}

/** The folder at the top of the output that `path` is in; '' for a file at the top. */
function topFolderOf(path: string): string {
  const slash = path.indexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** The bytes of `path`, undefined when absent; `read` is readFileNoFollow for a file inside the output folder. */
function readIfPresent(path: string, read: (path: string) => Buffer = readFileSync): Buffer | undefined {
  try {
    return read(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (isLinkRefusal(error)) throw new SymbolicLinkFound([basename(path)], dirname(path));
    throw new WriteError(msg`cannot read ${path}: ${(error as Error).message}.`, {
      hint: msg`It may belong to another user (e.g. after a run under sudo) or be a folder: give it back (chown) or move it away, then run again.`,
      cause: error,
    });
  }
}

/** The file system `path` is on, or would be on when made: that of its nearest existing folder. */
function deviceOf(path: string): number {
  for (let at = path; ; at = dirname(at)) {
    const stat = statSync(at, { throwIfNoEntry: false });
    if (stat !== undefined || dirname(at) === at) return stat?.dev ?? -1;
  }
}

function hashOrNull(bytes: Buffer | undefined): string | null {
  return bytes === undefined ? null : hashOf(bytes);
}

/** Writes `text` to a new file (refused when one is there, as `wx`). */
async function writeNewText(path: string, text: string): Promise<void> {
  await writeFile(path, text, { flag: 'wx' });
}

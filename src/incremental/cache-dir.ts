import { chmodSync, closeSync, constants, existsSync, fstatSync, lstatSync, mkdirSync, openSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { hashOf } from '../util/hash.js';

/**
 * Where schema-sync keeps machine-local caches (V8 code cache, the output folder's stat cache):
 * never committed, safe to delete, never needed for a correct result.
 *
 * `SCHEMA_SYNC_CACHE_DIR` names the folder (`off` turns caching off); otherwise the project's
 * `node_modules/.cache/schema-sync`, the place babel, eslint and webpack use, found upward from
 * `cwd`; outside any project, a per-user folder in the OS temp folder. Whichever it is, it is
 * used only as {@link cacheDirRefusal} allows.
 */
export function cacheDir(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string | undefined {
  const configured = env['SCHEMA_SYNC_CACHE_DIR'];
  if (configured !== undefined && configured !== '') {
    return /^(0|off|false|no|none)$/i.test(configured) ? undefined : resolve(cwd, configured);
  }
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules'))) return join(dir, 'node_modules', '.cache', 'schema-sync');
    if (dirname(dir) === dir) break;
  }
  return join(tmpdir(), `schema-sync-cache-${safeUser()}`);
}

function safeUser(): string {
  try {
    return String(process.getuid?.() ?? userInfo().username.replace(/[^\w.-]/g, '_'));
  } catch {
    return 'user';
  }
}

/** Most bytes of a cache file read back (a V8 entry of the bundle and ts-morph is a few MB). */
const MAX_CACHE_FILE_BYTES = 64 * 1024 * 1024;

/**
 * Why the cache folder `dir` must not be used (undefined: it may). A cache holds code V8 runs
 * and facts that let a run skip work, so it is trusted only as far as no one else could have
 * written it: it is a real folder (seen with lstat: no symbolic link in its place, nor at the
 * `node_modules/.cache` it sits in), owned by the current user, and writable by no one else. A
 * folder that does not exist yet may be used: {@link writeCacheFile} makes it so (mode 0700),
 * and checks it again. Each file read back is checked too ({@link readCacheFile}). A folder of
 * one's own that others may read is made private (0700).
 */
export function cacheDirRefusal(dir: string): string | undefined {
  for (const folder of foldersOnTheWay(dir)) {
    const why = folderRefusal(folder, folder === dir);
    if (why !== undefined) return why;
  }
  return undefined;
}

/** `dir`, and above it the `node_modules/.cache` that schema-sync's default places it in: each must be a folder, never a link. */
function foldersOnTheWay(dir: string): string[] {
  const cache = dirname(dir);
  if (basename(dir) !== 'schema-sync' || basename(cache) !== '.cache' || basename(dirname(cache)) !== 'node_modules') return [dir];
  return [dirname(cache), cache, dir];
}

function folderRefusal(folder: string, own: boolean): string | undefined {
  let stat;
  try {
    stat = lstatSync(folder, { throwIfNoEntry: false });
  } catch (error) {
    return `${folder} cannot be examined (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  if (stat === undefined) return undefined;
  if (stat.isSymbolicLink()) return `${folder} is a symbolic link, which a cache folder is never used through`;
  if (!stat.isDirectory()) return `${folder} is not a folder`;
  const uid = process.getuid?.();
  // Windows has neither owners nor these mode bits.
  if (uid === undefined || !own) return undefined;
  if (stat.uid !== uid) return `${folder} belongs to another user (uid ${stat.uid})`;
  if ((stat.mode & 0o022) !== 0) return `others can write ${folder} (mode ${(stat.mode & 0o777).toString(8)})`;
  if ((stat.mode & 0o077) !== 0) {
    try {
      chmodSync(folder, 0o700);
    } catch {
      // Readable by others, written by no one else: still sound.
    }
  }
  return undefined;
}

/**
 * The bytes of a cache file, or undefined when there is none or it is not one this user wrote:
 * opened without following a link and without waiting (a FIFO), and used only when it is a
 * regular file of the current user's, of at most a bounded size.
 */
export function readCacheFile(file: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    const uid = process.getuid?.();
    if (!stat.isFile() || (uid !== undefined && stat.uid !== uid) || stat.size > MAX_CACHE_FILE_BYTES) return undefined;
    const bytes = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, null);
      if (n === 0) break;
      read += n;
    }
    return bytes.subarray(0, read);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes a cache file whole or not at all (temp file, then rename), so a concurrent run never
 * reads half of one; `root` is the cache folder, `file` inside it (or a folder of it). The
 * folders are made private (0700) and checked as {@link cacheDirRefusal} checks them before
 * anything is written. Returns false on any error or refusal: a read-only, full or foreign cache
 * folder costs speed only.
 */
export function writeCacheFile(file: string, content: string | Uint8Array, root: string = dirname(file)): boolean {
  try {
    // Checked before the folders are made too: a link at the cache folder is not made through.
    if (cacheDirRefusal(root) !== undefined) return false;
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    for (let folder = dirname(file); ; folder = dirname(folder)) {
      if (cacheDirRefusal(folder) !== undefined) return false;
      if (folder === root || dirname(folder) === folder) break;
    }
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, content, { mode: 0o600 });
    renameSync(temp, file);
    return true;
  } catch {
    return false;
  }
}

/** The cache file of kind `kind` (e.g. `stat-…tsv`) that belongs to the output folder `outDir`. */
export function cacheFileOf(cacheDir: string, outDir: string, kind: string, extension: string): string {
  return join(cacheDir, `${kind}-${hashOf(resolve(outDir))}.${extension}`);
}

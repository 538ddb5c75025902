import { lstatSync, type Stats } from 'node:fs';
import { hashOf } from '../util/hash.js';
import { readFileNoFollow } from '../util/read-no-follow.js';
import { readCacheFile, writeCacheFile } from './cache-dir.js';

/**
 * What earlier runs verified of the output folder's files, kept in the cache folder (it is
 * machine-specific: inode numbers, timestamps). Like git's index: a file whose size, mtime, ctime
 * and inode are as recorded still holds the bytes that were hashed, so a run where nothing
 * changed stats its files instead of reading and hashing them.
 *
 * "Racy" entries are never trusted: a file changed within the file system's timestamp
 * granularity after it was hashed could keep its mtime, so an entry vouches only when it was
 * verified clearly after the file's last change; a racy one is hashed again. Hand-edits change
 * mtime or ctime (restoring the mtime with `touch -d` still changes ctime), so they are seen.
 *
 * When every file of one manifest has an entry, the cache names that manifest's hash: a folder
 * whose manifest still has that hash and whose files all still match their entries is unchanged,
 * known with one stat per file and neither the manifest nor the files read.
 *
 * Stats do not follow a symbolic link (lstat): a link in a file's place is no file, never
 * vouched for nor read through (nor a folder on the way: `onDisk` gives no path through one).
 */
export interface StatCache {
  /** Whether the file at `onDisk` holds bytes with hash `sha`: by its stat when an entry vouches for it, else by hashing it (and recording that). */
  holds(path: string, onDisk: string, sha: string): boolean;
  /**
   * Whether the files of the manifest with hash `manifestHash` are all as recorded (racy ones
   * hashed again). `onDisk` gives a file's path on disk, or undefined when it must not be judged
   * by its stat (an interrupted run is pending).
   * @returns how many files there are when they all are as recorded; undefined otherwise
   */
  unchangedSince(manifestHash: string, onDisk: (path: string) => string | undefined): number | undefined;
  /**
   * Writes the cache for the manifest with hash `manifestHash`: only entries of its `files` with
   * the hash it records are kept, and the cache names the manifest when each file has one.
   * Without `files`, the cache must name that manifest already (it is saved as it is). Errors
   * only cost speed and are ignored.
   */
  save(manifestHash: string, files?: ReadonlyMap<string, { sha: string }>): void;
}

const HEADER = 'schema-sync stat cache 2';

/** Opens the stat cache kept in `file` (the plain path, without one, is `openIncremental`'s). */
export function openStatCache(file: string, clock: () => number = Date.now): StatCache {
  let loaded: { manifestHash: string; entries: Map<string, Entry> } | undefined;
  const cache = () => (loaded ??= load(file));
  let dirty = false;
  const record = (path: string, stat: Stats, sha: string, verifiedAt: number) => {
    if (path.includes('\t') || path.includes('\n')) return;
    cache().entries.set(path, { signature: signature(stat), sha, verifiedAt });
    dirty = true;
  };
  /** Whether `entry` vouches for the file with `stat`, else (racy or changed) hashes it. */
  const matches = (path: string, onDisk: string, stat: Stats, sha: string): boolean => {
    const entry = cache().entries.get(path);
    if (entry !== undefined && entry.sha === sha && entry.signature === signature(stat) && !racy(entry.verifiedAt, stat)) return true;
    // The time before reading: a change after it gets a later mtime than the one recorded.
    const verifiedAt = clock();
    let bytes: Buffer;
    try {
      // A symbolic link put in its place since the stat is not read through.
      bytes = readFileNoFollow(onDisk);
    } catch {
      return false;
    }
    if (hashOf(bytes) !== sha) return false;
    record(path, stat, sha, verifiedAt);
    return true;
  };
  return {
    holds(path, onDisk, sha) {
      const stat = lstatIfThere(onDisk);
      return stat !== undefined && stat.isFile() && matches(path, onDisk, stat, sha);
    },
    unchangedSince(manifestHash, onDisk) {
      const { manifestHash: recorded, entries } = cache();
      if (recorded !== manifestHash) return undefined;
      for (const [path, entry] of entries) {
        const where = onDisk(path);
        const stat = where === undefined ? undefined : lstatIfThere(where);
        if (where === undefined || stat === undefined || !stat.isFile() || !matches(path, where, stat, entry.sha)) return undefined;
      }
      return entries.size;
    },
    save(manifestHash, files) {
      const current = cache();
      if (files === undefined) {
        if (dirty && current.manifestHash === manifestHash) write(file, current);
        dirty = false;
        return;
      }
      const matching = new Map<string, Entry>();
      for (const [path, { sha }] of files) {
        const entry = current.entries.get(path);
        if (entry?.sha === sha) matching.set(path, entry);
      }
      loaded = { manifestHash: matching.size === files.size ? manifestHash : '', entries: matching };
      write(file, loaded);
      dirty = false;
    },
  };
}

interface Entry {
  signature: string;
  sha: string;
  /** A time taken before the file was read for hashing. */
  verifiedAt: number;
}

function write(file: string, cache: { manifestHash: string; entries: Map<string, Entry> }): void {
  const lines = [HEADER, cache.manifestHash];
  for (const [path, entry] of cache.entries) lines.push(`${path}\t${entry.signature}\t${entry.sha}\t${entry.verifiedAt}`);
  writeCacheFile(file, `${lines.join('\n')}\n`);
}

function load(file: string): { manifestHash: string; entries: Map<string, Entry> } {
  const entries = new Map<string, Entry>();
  let text: string;
  try {
    text = readCacheFile(file)?.toString('utf8') ?? '';
  } catch {
    return { manifestHash: '', entries };
  }
  const lines = text.split('\n');
  if (lines[0] !== HEADER || lines.length < 3) return { manifestHash: '', entries };
  // The file ends with a line break: its last "line" is empty. A damaged line names no manifest.
  for (let i = 2; i < lines.length - 1; i++) {
    const [path, signature, sha, verifiedAt, ...rest] = lines[i]!.split('\t');
    if (rest.length > 0 || verifiedAt === undefined || !Number.isFinite(Number(verifiedAt))) return { manifestHash: '', entries };
    entries.set(path!, { signature: signature!, sha: sha!, verifiedAt: Number(verifiedAt) });
  }
  return { manifestHash: lines[1]!, entries };
}

function signature(stat: Stats): string {
  return `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}:${stat.dev}`;
}

/**
 * Whether a hash taken at `verifiedAt` may not reflect the file's bytes: taken within the file
 * system's timestamp granularity of its last change. File systems with whole-second timestamps
 * (FAT: two seconds) leave no fraction in mtime; the others change theirs at each clock tick.
 */
function racy(verifiedAt: number, stat: Stats): boolean {
  const granularityMs = stat.mtimeMs % 1000 === 0 ? 2500 : 100;
  return verifiedAt - Math.max(stat.mtimeMs, stat.ctimeMs) <= granularityMs;
}

/** The stat of a file, undefined where there is none: also when a file stands where a folder on its way should be (ENOTDIR; the write's checks name it). */
function lstatIfThere(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

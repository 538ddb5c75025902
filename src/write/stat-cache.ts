import { readFileSync, statSync, type Stats } from 'node:fs';
import { cacheFileOf, writeCacheFile } from '../model/cache-dir.js';
import { hashBytes } from './freshness.js';

/**
 * What a previous run verified of the output folder's files, kept outside the folder (it is
 * machine-specific: inode numbers, timestamps) in the cache folder. Like git's index: a file
 * whose size, mtime, ctime and inode are as recorded still holds the bytes that were hashed, so
 * a run where nothing changed stats 10,000 files instead of reading and hashing them.
 *
 * "Racy" entries are never trusted: a file changed within the file system's timestamp
 * granularity after it was hashed could keep its mtime, so an entry counts only when it was
 * verified clearly after the file's last change. Hand-edits change mtime or ctime (restoring
 * the mtime with `touch -d` still changes ctime), so they are always seen.
 */
export interface StatCache {
  /** The content hash recorded for `path` when `stat` still matches and the entry is safe; else undefined. */
  lookup(path: string, stat: Stats): string | undefined;
  /** Records that `path`, with `stat`, was hashed to `sha`; `verifiedAt` is a time taken before the stat. */
  record(path: string, stat: Stats, sha: string, verifiedAt: number): void;
  /** Writes the cache when something was recorded; errors only cost speed and are ignored. */
  save(): void;
  /**
   * Whether every file the manifest with hash `manifestSha` lists is exactly as a previous run
   * found it when it last saw them all fresh (see {@link StatCache.snapshot}): one stat per file,
   * neither the manifest nor this cache read. `onDisk` gives a file's path on disk, or undefined
   * when it must not be judged by its stat (an interrupted run is pending).
   * @returns the number of files when they all are; undefined otherwise
   */
  unchangedSince(manifestSha: string, onDisk: (path: string) => string | undefined): number | undefined;
  /**
   * Remembers that all of `paths` were found fresh against the manifest with hash `manifestSha`,
   * provided this run could vouch for each of them by its stat (none was racy).
   */
  snapshot(manifestSha: string, paths: readonly string[]): void;
  /**
   * Right after a run wrote the folder: remembers the manifest's files as they are now. Files the
   * run just wrote (`written`) are too new to be judged by their stat alone, so the snapshot keeps
   * their content hash and the next run hashes them again; every other file must be one this cache
   * vouches for by its stat, or no snapshot is taken.
   * @param files every file of the manifest with hash `manifestSha`, with its content hash
   */
  snapshotAfterWrite(
    manifestSha: string,
    files: Iterable<readonly [path: string, sha: string]>,
    written: ReadonlySet<string>,
    onDisk: (path: string) => string,
    /**
     * The manifest the run found (its hash, and its content hash of a path): where the snapshot
     * on file is of that manifest, its entries for files with the same hash now carry over
     * without a stat (an entry only ever vouches for the bytes it was taken of).
     */
    previous?: { manifestSha: string; shaOf: (path: string) => string | undefined },
  ): void;
}

const HEADER = 'schema-sync stat cache 1';

/** Opens the stat cache of `outDir` in `cacheDir`; without a cache folder, one that remembers nothing. */
export function openStatCache(outDir: string, cacheDir: string | undefined): StatCache {
  const file = cacheDir === undefined ? undefined : cacheFileOf(cacheDir, outDir, 'stat', 'tsv');
  const snapshotFile = cacheDir === undefined ? undefined : cacheFileOf(cacheDir, outDir, 'snapshot', 'json');
  // Loaded on first use: a run that the snapshot satisfies never needs it.
  let loaded: Map<string, string[]> | undefined;
  const entries = () => (loaded ??= file === undefined ? new Map<string, string[]>() : load(file));
  /** Signatures of the files this run could vouch for by their stat, for a snapshot. */
  const vouched = new Map<string, string>();
  let dirty = false;
  const lookup = (path: string, stat: Stats): string | undefined => {
    const entry = entries().get(path);
    const sig = signature(stat);
    if (entry === undefined || entry[0] !== sig) return undefined;
    if (Number(entry[2]) - Math.max(stat.mtimeMs, stat.ctimeMs) <= granularityMs(stat)) return undefined;
    vouched.set(path, sig);
    return entry[1];
  };
  return {
    lookup,
    record(path, stat, sha, verifiedAt) {
      if (file === undefined || path.includes('\t') || path.includes('\n')) return;
      const sig = signature(stat);
      entries().set(path, [sig, sha, String(verifiedAt)]);
      if (verifiedAt - Math.max(stat.mtimeMs, stat.ctimeMs) > granularityMs(stat)) vouched.set(path, sig);
      dirty = true;
    },
    unchangedSince(manifestSha, onDisk) {
      const snapshot = snapshotFile === undefined ? undefined : readSnapshot(snapshotFile, manifestSha);
      if (snapshot === undefined) return undefined;
      for (const [relative, entry] of snapshot) {
        const path = onDisk(relative);
        const stat = path === undefined ? undefined : statSync(path, { throwIfNoEntry: false });
        if (stat === undefined || !stat.isFile()) return undefined;
        // `signature#sha`: a file written just before the snapshot, judged by its bytes too.
        const [sig, sha] = entry.split('#');
        if (signature(stat) !== sig || (sha !== undefined && !holds(path!, sha))) return undefined;
      }
      return snapshot.size;
    },
    snapshotAfterWrite(manifestSha, files, written, onDisk, previous) {
      if (snapshotFile === undefined) return;
      const earlier = (previous === undefined ? undefined : readSnapshot(snapshotFile, previous.manifestSha)) ?? new Map<string, string>();
      const recorded: string[] = [];
      for (const [path, sha] of files) {
        const carried = written.has(path) || previous?.shaOf(path) !== sha ? undefined : earlier.get(path);
        if (carried !== undefined) {
          recorded.push(path, carried);
          continue;
        }
        const stat = statSync(onDisk(path), { throwIfNoEntry: false });
        if (stat === undefined || !stat.isFile()) return;
        if (written.has(path)) {
          recorded.push(path, `${signature(stat)}#${sha}`);
        } else if (lookup(path, stat) === sha) {
          recorded.push(path, signature(stat));
        } else {
          return;
        }
      }
      writeCacheFile(snapshotFile, JSON.stringify({ manifestSha, files: recorded }));
    },
    snapshot(manifestSha, paths) {
      if (snapshotFile === undefined || !paths.every((path) => vouched.has(path))) return;
      writeCacheFile(snapshotFile, JSON.stringify({ manifestSha, files: paths.flatMap((path) => [path, vouched.get(path)!]) }));
    },
    save() {
      if (!dirty || file === undefined) return;
      const lines = [HEADER];
      for (const [path, entry] of entries()) lines.push(`${path}\t${entry.join('\t')}`);
      if (writeCacheFile(file, `${lines.join('\n')}\n`)) dirty = false;
    },
  };
}

function load(file: string): Map<string, string[]> {
  const entries = new Map<string, string[]>();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return entries;
  }
  const lines = text.split('\n');
  if (lines[0] !== HEADER) return entries;
  for (let i = 1; i < lines.length; i++) {
    const parts = lines[i]!.split('\t');
    if (parts.length === 4) entries.set(parts[0]!, parts.slice(1));
  }
  return entries;
}

/**
 * The entries of the snapshot in `file` (signature, or `signature#sha`) by path, when it is a
 * snapshot of the manifest with hash `manifestSha`; undefined when it is not, or is missing or
 * damaged.
 */
function readSnapshot(file: string, manifestSha: string): Map<string, string> | undefined {
  let snapshot: { manifestSha?: unknown; files?: unknown };
  try {
    snapshot = JSON.parse(readFileSync(file, 'utf8')) as typeof snapshot;
  } catch {
    return undefined;
  }
  const files = snapshot.files;
  if (snapshot.manifestSha !== manifestSha || !Array.isArray(files) || files.length % 2 !== 0) return undefined;
  const entries = new Map<string, string>();
  for (let i = 0; i < files.length; i += 2) entries.set(String(files[i]), String(files[i + 1]));
  return entries;
}

/** Whether the file at `path` holds the bytes hashed to `sha` (the manifest's hash). */
function holds(path: string, sha: string): boolean {
  try {
    return hashBytes(readFileSync(path)) === sha;
  } catch {
    return false;
  }
}

function signature(stat: Stats): string {
  return `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}:${stat.dev}`;
}

/**
 * How long after a file's last change a hash of it is safe to trust. File systems with whole-
 * second timestamps (FAT: two seconds) leave no fraction in mtime; the others change theirs at
 * each clock tick (a few milliseconds).
 */
function granularityMs(stat: Stats): number {
  return stat.mtimeMs % 1000 === 0 ? 2500 : 100;
}

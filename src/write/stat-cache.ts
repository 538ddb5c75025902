import { createHash } from 'node:crypto';
import { readFileSync, type Stats } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeCacheFile } from '../model/cache-dir.js';

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
}

const HEADER = 'schema-sync stat cache 1';

/** Opens the stat cache of `outDir` in `cacheDir`; without a cache folder, one that remembers nothing. */
export function openStatCache(outDir: string, cacheDir: string | undefined): StatCache {
  const file = cacheDir === undefined ? undefined : join(cacheDir, `stat-${createHash('sha256').update(resolve(outDir)).digest('hex').slice(0, 24)}.tsv`);
  const entries = file === undefined ? new Map<string, string[]>() : load(file);
  let dirty = false;
  return {
    lookup(path, stat) {
      const entry = entries.get(path);
      if (entry === undefined || entry[0] !== signature(stat)) return undefined;
      const verifiedAt = Number(entry[2]);
      return verifiedAt - Math.max(stat.mtimeMs, stat.ctimeMs) > granularityMs(stat) ? entry[1] : undefined;
    },
    record(path, stat, sha, verifiedAt) {
      if (file === undefined || path.includes('\t') || path.includes('\n')) return;
      entries.set(path, [signature(stat), sha, String(verifiedAt)]);
      dirty = true;
    },
    save() {
      if (!dirty || file === undefined) return;
      const lines = [HEADER];
      for (const [path, entry] of entries) lines.push(`${path}\t${entry.join('\t')}`);
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

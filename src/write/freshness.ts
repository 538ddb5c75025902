import { hash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { FolderView } from './folder-view.js';
import { MANIFEST_FILE, parseManifest, type Manifest, type ManifestEntry } from './manifest.js';
import type { StatCache } from './stat-cache.js';

/** A file the output should hold, with the fingerprint of its inputs. */
export interface ExpectedFile {
  path: string;
  input: string;
}

/** Which expected files are already right on disk, and which must be (re)generated. */
export interface Freshness<T extends ExpectedFile> {
  /** The manifest as found. */
  manifest: Manifest;
  /** Same inputs as recorded and the bytes on disk unchanged since written. */
  fresh: T[];
  /** Missing, hand-edited, or generated from other inputs. */
  stale: T[];
}

/**
 * Sorts expected files into fresh and stale using the manifest: a file is fresh when the
 * manifest recorded the same input fingerprint and the file's bytes still hash to what was
 * written. Reading and hashing is far cheaper than emitting, so unchanged runs emit nothing;
 * with a {@link StatCache}, files unchanged since a previous run verified them are not even read.
 */
export async function assessFreshness<T extends ExpectedFile>(
  outDir: string,
  view: FolderView,
  expected: readonly T[],
  stats?: StatCache,
  /** The folder's manifest when the caller has parsed it already. */
  known?: Manifest,
  /** Paths verified fresh against this same manifest moments ago (not checked again): a set, or a manifest all of whose files were. */
  verified?: Pick<ReadonlySet<string>, 'has'>,
): Promise<Freshness<T>> {
  const manifest = known ?? parseManifest(await view.read(MANIFEST_FILE), outDir);
  const fresh: T[] = [];
  const stale: T[] = [];
  let checked = 0;
  for (const file of expected) {
    // Let I/O through now and then: a run checks its folder while its request is in flight.
    if (++checked % 1000 === 0) await yieldToEventLoop();
    const entry = manifest.get(file.path);
    let ok = false;
    if (entry !== undefined && entry.input === file.input && verified?.has(file.path)) {
      ok = true;
    } else if (entry !== undefined && entry.input === file.input) {
      const onDisk = stats === undefined ? undefined : view.pathOnDisk(file.path);
      if (onDisk !== undefined) {
        ok = verifiedOnDisk(file.path, onDisk, entry, stats!);
      } else {
        const bytes = await view.read(file.path);
        ok = bytes !== undefined && hashBytes(bytes) === entry.sha;
      }
    }
    (ok ? fresh : stale).push(file);
  }
  return { manifest, fresh, stale };
}

/** Whether the file at `onDisk` holds the bytes the manifest recorded: by its stat if the cache vouches for it, else by hashing. */
function verifiedOnDisk(path: string, onDisk: string, entry: ManifestEntry, stats: StatCache): boolean {
  // The time before the stat: a change after it gets a later mtime than the one recorded.
  const verifiedAt = Date.now();
  const stat = statSync(onDisk, { throwIfNoEntry: false });
  if (stat === undefined || !stat.isFile()) return false;
  if (stats.lookup(path, stat) === entry.sha) return true;
  let sha: string;
  try {
    sha = hashBytes(readFileSync(onDisk));
  } catch {
    return false;
  }
  if (sha !== entry.sha) return false;
  stats.record(path, stat, sha, verifiedAt);
  return true;
}

/** The content hash the manifest records (same as the emit stage's `contentHash`). */
export function hashBytes(bytes: Buffer | string): string {
  return hash('sha256', bytes, 'hex').slice(0, 24);
}

import { createHash } from 'node:crypto';
import type { FolderView } from './folder-view.js';
import { MANIFEST_FILE, parseManifest, type Manifest } from './manifest.js';

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
 * written. Reading and hashing is far cheaper than emitting, so unchanged runs emit nothing.
 */
export async function assessFreshness<T extends ExpectedFile>(outDir: string, view: FolderView, expected: readonly T[]): Promise<Freshness<T>> {
  const manifest = parseManifest(await view.read(MANIFEST_FILE), outDir);
  const fresh: T[] = [];
  const stale: T[] = [];
  for (const file of expected) {
    const entry = manifest.get(file.path);
    const bytes = entry && entry.input === file.input ? await view.read(file.path) : undefined;
    if (entry && bytes && hashBytes(bytes) === entry.sha) fresh.push(file);
    else stale.push(file);
  }
  return { manifest, fresh, stale };
}

/** The content hash the manifest records (same as the emit stage's `contentHash`). */
export function hashBytes(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 24);
}

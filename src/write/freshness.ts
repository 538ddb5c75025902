import type { Manifest } from './manifest.js';

/** A file the output should hold, with the fingerprint of its inputs. */
export interface ExpectedFile {
  path: string;
  input: string;
}

/** The expected files that must be (re)generated. */
export interface Freshness<T extends ExpectedFile> {
  /** Missing, hand-edited, or generated from other inputs. */
  stale: T[];
}

/**
 * Finds the stale expected files using the manifest: a file is fresh when the
 * manifest recorded the same input fingerprint and `holds` confirms the file still has the bytes
 * recorded (their hash). Checking is far cheaper than emitting, so unchanged runs emit nothing.
 */
export async function assessFreshness<T extends ExpectedFile>(input: {
  expected: readonly T[];
  manifest: Manifest;
  /** Whether the file at `path` holds bytes with hash `sha`. */
  holds: (path: string, sha: string) => Promise<boolean>;
}): Promise<Freshness<T>> {
  const stale: T[] = [];
  for (const file of input.expected) {
    const entry = input.manifest.get(file.path);
    const fresh = entry !== undefined && entry.input === file.input && (await input.holds(file.path, entry.sha));
    if (!fresh) stale.push(file);
  }
  return { stale };
}

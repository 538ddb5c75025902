import { compareStrings } from '../model/descriptor.js';
import { WriteError } from '../model/errors.js';
import type { FolderView } from './folder-view.js';
import { hashOf } from '../util/hash.js';
import type { ExpectedFile } from './freshness.js';
import { commitTransaction } from './journal.js';
import { isSafeRelativePath, MANIFEST_FILE, ManifestText, serializeManifest, type Manifest } from './manifest.js';

/** A file to place in the output folder. */
export interface OutputFile {
  /** Posix path relative to the output folder. */
  path: string;
  text: string;
}

/** What a write changed. */
export interface WriteResult {
  /** Paths (relative to the output folder) whose bytes changed. */
  written: string[];
  /** Generated files of removed types that were deleted. */
  deleted: string[];
  /** Generated files of removed types that were edited since: left in place, and no longer in the manifest. */
  leftEdited: string[];
  /** Files left alone because their bytes were already right. */
  unchanged: number;
  /** Whether the lockfile's bytes changed. */
  lockfileWritten: boolean;
}

/** Options of {@link writeOutput}. */
export interface WriteOutputOptions {
  outDir: string;
  /** The folder as it is now (after recovering any interrupted run). */
  view: FolderView;
  /** Every file the output should hold, with input fingerprints. */
  expected: readonly ExpectedFile[];
  /** Texts of the expected files that were (re)generated; the others are fresh and kept as they are. */
  files: readonly OutputFile[];
  /** The manifest as found (entries of fresh files are kept). */
  manifest: Manifest;
  /** The lockfile to write with the folder, when the run updates it. */
  lockfile?: { path: string; text: string };
  /** Aborted by an interrupt: the transaction is rolled back unless it is committed already. */
  interrupt?: AbortSignal;
}

/**
 * Writes the output folder and the lockfile together, as one transaction: only files whose
 * bytes differ are written (unchanged files keep their mtime); files schema-sync generated
 * before and no longer generates are deleted, and nothing else is. Call with the run lock held.
 */
export async function writeOutput(options: WriteOutputOptions): Promise<{ write: WriteResult; manifest: ManifestText }> {
  const { outDir, view, manifest } = options;
  const texts = new Map(options.files.map((f) => [f.path, f.text]));
  const next: Manifest = new Map();
  const writes: OutputFile[] = [];
  let unchanged = 0;
  for (const file of options.expected) {
    if (!isSafeRelativePath(file.path) || file.path.startsWith('.schema-sync')) {
      throw new WriteError(`refusing to write ${JSON.stringify(file.path)}: not a plain path inside ${outDir}.`);
    }
    const text = texts.get(file.path);
    if (text === undefined) {
      const recorded = manifest.get(file.path);
      if (!recorded) throw new WriteError(`internal: ${file.path} was neither generated nor recorded in the manifest.`);
      next.set(file.path, recorded);
      unchanged++;
      continue;
    }
    next.set(file.path, { input: file.input, sha: hashOf(text) });
    const current = await view.read(file.path);
    if (current && current.equals(Buffer.from(text, 'utf8'))) unchanged++;
    else writes.push({ path: file.path, text });
  }
  // Only a file with the bytes schema-sync wrote is deleted: one edited since is left in place.
  const deletes: string[] = [];
  const leftEdited: string[] = [];
  for (const [path, entry] of manifest) {
    if (next.has(path)) continue;
    const bytes = await view.read(path);
    if (bytes !== undefined) (hashOf(bytes) === entry.sha ? deletes : leftEdited).push(path);
  }
  const manifestText = serializeManifest(next);
  const currentManifest = await view.read(MANIFEST_FILE);
  if (!currentManifest || !currentManifest.equals(Buffer.from(manifestText, 'utf8'))) writes.push({ path: MANIFEST_FILE, text: manifestText });
  let lockfile = options.lockfile;
  if (lockfile && (await view.readLockfile(lockfile.path)) === lockfile.text) lockfile = undefined;
  writes.sort((a, b) => compareStrings(a.path, b.path));
  await commitTransaction(outDir, { writes, deletes: deletes.sort(compareStrings), lockfile }, options.interrupt);
  const write = {
    written: writes.filter((w) => w.path !== MANIFEST_FILE).map((w) => w.path),
    deleted: deletes,
    leftEdited,
    unchanged,
    lockfileWritten: lockfile !== undefined,
  };
  return { write, manifest: new ManifestText(manifestText, outDir, next) };
}

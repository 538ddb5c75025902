import { WriteError } from '../model/errors.js';
import { commitTransaction } from './journal.js';
import { isSafeRelativePath, MANIFEST_FILE, parseManifest, serializeManifest } from './manifest.js';
import type { FolderView } from './folder-view.js';

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
  files: readonly OutputFile[];
  /** The lockfile to write with the folder, when the run updates it. */
  lockfile?: { path: string; text: string };
  /**
   * Paths this run did not re-emit because they are known unchanged; they stay owned and are
   * not deleted. Used when only the changed modules were emitted.
   */
  keep?: readonly string[];
}

/**
 * Writes the output folder and the lockfile together, as one transaction: only files whose
 * bytes differ are written (unchanged files keep their mtime); files schema-sync generated
 * before and no longer generates are deleted, and nothing else is. Call with the run lock held.
 */
export async function writeOutput(options: WriteOutputOptions): Promise<WriteResult> {
  const { outDir, view } = options;
  for (const file of options.files) {
    if (!isSafeRelativePath(file.path) || file.path === MANIFEST_FILE || file.path.startsWith('.schema-sync')) {
      throw new WriteError(`refusing to write ${JSON.stringify(file.path)}: not a plain path inside ${outDir}.`);
    }
  }
  const previous = parseManifest(await view.read(MANIFEST_FILE), outDir);
  const next = new Set([...options.files.map((f) => f.path), ...(options.keep ?? [])]);
  const writes: OutputFile[] = [];
  let unchanged = 0;
  await Promise.all(
    options.files.map(async (file) => {
      const current = await view.read(file.path);
      if (current && current.equals(Buffer.from(file.text, 'utf8'))) unchanged++;
      else writes.push(file);
    }),
  );
  const deletes: string[] = [];
  for (const path of previous) if (!next.has(path) && (await view.read(path)) !== undefined) deletes.push(path);
  const manifest = serializeManifest([...next]);
  const currentManifest = await view.read(MANIFEST_FILE);
  const manifestChanged = !currentManifest || !currentManifest.equals(Buffer.from(manifest, 'utf8'));
  let lockfile = options.lockfile;
  if (lockfile && (await view.readLockfile(lockfile.path)) === lockfile.text) lockfile = undefined;
  writes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  await commitTransaction(outDir, {
    writes: manifestChanged ? [...writes, { path: MANIFEST_FILE, text: manifest }] : writes,
    deletes,
    lockfile,
  });
  return { written: writes.map((w) => w.path), deleted: deletes.sort(), unchanged, lockfileWritten: lockfile !== undefined };
}

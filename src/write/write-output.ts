import { mkdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { WriteError } from '../model/errors.js';
import { isSafeRelativePath, MANIFEST_FILE, readManifest, serializeManifest } from './manifest.js';

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
 * Writes the output folder: only files whose bytes differ are written (atomically: a temp file
 * then a rename, so a reader never sees half a file); unchanged files keep their mtime; files
 * schema-sync generated before and no longer generates are deleted, and nothing else is.
 * The lockfile is written last, so an interrupted run leaves the old lockfile and the next run
 * rewrites the folder from scratch.
 */
export async function writeOutput(options: WriteOutputOptions): Promise<WriteResult> {
  const { outDir } = options;
  for (const file of options.files) {
    if (!isSafeRelativePath(file.path) || file.path === MANIFEST_FILE) {
      throw new WriteError(`refusing to write ${JSON.stringify(file.path)}: not a plain path inside ${outDir}.`);
    }
  }
  const previous = await readManifest(outDir);
  const next = new Set([...options.files.map((f) => f.path), ...(options.keep ?? [])]);
  const result: WriteResult = { written: [], deleted: [], unchanged: 0, lockfileWritten: false };
  for (const file of options.files) {
    if (await writeIfChanged(join(outDir, file.path), file.text)) result.written.push(file.path);
    else result.unchanged++;
  }
  for (const path of previous.files) {
    if (next.has(path)) continue;
    if (await removeIfPresent(join(outDir, path))) result.deleted.push(path);
  }
  await writeIfChanged(join(outDir, MANIFEST_FILE), serializeManifest([...next]));
  if (options.lockfile) result.lockfileWritten = await writeIfChanged(options.lockfile.path, options.lockfile.text);
  return result;
}

/** Writes `text` to `path` unless it already holds exactly those bytes. True when written. */
export async function writeIfChanged(path: string, text: string): Promise<boolean> {
  const bytes = Buffer.from(text, 'utf8');
  const current = await readFile(path).catch(() => undefined);
  if (current && current.equals(bytes)) return false;
  await atomicWrite(path, bytes);
  return true;
}

/** Temp file beside the target, then rename: the target is old or new, never half-written. */
export async function atomicWrite(path: string, bytes: Buffer): Promise<void> {
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(temp, bytes);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw new WriteError(`cannot write ${path}: ${(error as Error).message}`, {
      hint: 'Check that the folder is writable and the disk is not full.',
      cause: error,
    });
  }
}

async function removeIfPresent(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isFile()) return false;
    await unlink(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new WriteError(`cannot delete ${path}: ${(error as Error).message}`, { cause: error });
  }
}

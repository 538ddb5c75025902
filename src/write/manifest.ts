import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compareStrings } from '../model/descriptor.js';
import { WriteError } from '../model/errors.js';

/** File in the output folder that lists what schema-sync generated there, so only those are ever deleted. */
export const MANIFEST_FILE = '.schema-sync-manifest.json';

/** The files schema-sync owns in an output folder. */
export interface Manifest {
  files: string[];
}

/** Manifest text: sorted paths, stable bytes. */
export function serializeManifest(files: readonly string[]): string {
  const sorted = [...files].sort(compareStrings);
  return `${JSON.stringify({ generator: 'schema-sync', files: sorted }, null, 2)}\n`;
}

/** Reads the manifest; a folder without one owns nothing (a first run, or a foreign folder). */
export async function readManifest(outDir: string): Promise<Manifest> {
  const file = join(outDir, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { files: [] };
    throw new WriteError(`cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
  try {
    const parsed = JSON.parse(text) as { files?: unknown };
    if (!Array.isArray(parsed.files) || !parsed.files.every((f) => typeof f === 'string')) throw new Error('no "files" list');
    return { files: parsed.files.filter(isSafeRelativePath) };
  } catch (error) {
    throw new WriteError(`${file} is damaged (${(error as Error).message}).`, {
      hint: `Delete ${file} and the generated files, then run schema-sync generate.`,
    });
  }
}

/** A posix path that stays inside the folder: relative, no `..`, no empty or dot segments. */
export function isSafeRelativePath(path: string): boolean {
  if (path.length === 0 || path.startsWith('/') || path.includes('\\') || path.includes('\0')) return false;
  return path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..' && !/^[a-zA-Z]:$/.test(segment));
}

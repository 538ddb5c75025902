import { compareStrings } from '../model/descriptor.js';
import { WriteError } from '../model/errors.js';

/** File in the output folder that lists what schema-sync generated there, so only those are ever deleted. */
export const MANIFEST_FILE = '.schema-sync-manifest.json';

/** Manifest text: sorted paths, stable bytes. */
export function serializeManifest(files: readonly string[]): string {
  const sorted = [...files].sort(compareStrings);
  return `${JSON.stringify({ generator: 'schema-sync', files: sorted }, null, 2)}\n`;
}

/** The paths a manifest lists; none for a folder without one (a first run, or a foreign folder). */
export function parseManifest(bytes: Buffer | undefined, outDir: string): string[] {
  if (bytes === undefined) return [];
  try {
    const parsed = JSON.parse(bytes.toString('utf8')) as { files?: unknown };
    if (!Array.isArray(parsed.files) || !parsed.files.every((f) => typeof f === 'string')) throw new Error('no "files" list');
    return parsed.files.filter(isSafeRelativePath);
  } catch (error) {
    throw new WriteError(`${outDir}/${MANIFEST_FILE} is damaged (${(error as Error).message}).`, {
      hint: `Delete it and the generated files, then run schema-sync generate.`,
    });
  }
}

/** A posix path that stays inside the folder: relative, no `..`, no empty or dot segments. */
export function isSafeRelativePath(path: string): boolean {
  if (path.length === 0 || path.startsWith('/') || path.includes('\\') || path.includes('\0')) return false;
  return path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..' && !/^[a-zA-Z]:$/.test(segment));
}

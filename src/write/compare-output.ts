import { compareStrings } from '../model/descriptor.js';
import type { FolderView } from './folder-view.js';
import { MANIFEST_FILE, parseManifest } from './manifest.js';
import type { OutputFile } from './write-output.js';

/** A file in the output folder that is not what the lockfile generates. */
export interface FolderDrift {
  path: string;
  reason: 'missing' | 'extra' | 'modified';
}

/**
 * Compares the output folder with the files the lockfile generates, reading only: a missing
 * file, a hand-edited one, or a generated file that should no longer be there (listed in the
 * manifest) is drift. Foreign files the manifest does not name are not schema-sync's business.
 */
export async function compareOutput(outDir: string, view: FolderView, expected: readonly OutputFile[]): Promise<FolderDrift[]> {
  const drift: FolderDrift[] = [];
  const wanted = new Set(expected.map((f) => f.path));
  await Promise.all(
    expected.map(async (file) => {
      const current = await view.read(file.path);
      if (current === undefined) drift.push({ path: file.path, reason: 'missing' });
      else if (!current.equals(Buffer.from(file.text, 'utf8'))) drift.push({ path: file.path, reason: 'modified' });
    }),
  );
  for (const path of parseManifest(await view.read(MANIFEST_FILE), outDir)) {
    if (!wanted.has(path) && (await view.read(path)) !== undefined) drift.push({ path, reason: 'extra' });
  }
  return drift.sort((a, b) => compareStrings(a.path, b.path));
}

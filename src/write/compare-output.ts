import { compareStrings } from '../model/descriptor.js';
import type { FolderView } from './folder-view.js';
import type { Manifest } from './manifest.js';
import type { OutputFile } from './write-output.js';

/** A file in the output folder that is not what the lockfile generates. */
export interface FolderDrift {
  path: string;
  reason: 'missing' | 'extra' | 'modified';
}

/**
 * Compares files with the folder, reading only: a missing file or one with other bytes is
 * drift, and so is a generated file (listed in the manifest) that should no longer be there.
 * Foreign files the manifest does not name are not schema-sync's business.
 */
export async function compareOutput(input: {
  view: FolderView;
  /** Regenerated texts of the files that could not be shown fresh. */
  files: readonly OutputFile[];
  /** Every path the output should hold. */
  expectedPaths: ReadonlySet<string>;
  manifest: Manifest;
}): Promise<FolderDrift[]> {
  const { view } = input;
  const drift: FolderDrift[] = [];
  await Promise.all(
    input.files.map(async (file) => {
      const current = await view.read(file.path);
      if (current === undefined) drift.push({ path: file.path, reason: 'missing' });
      else if (!current.equals(Buffer.from(file.text, 'utf8'))) drift.push({ path: file.path, reason: 'modified' });
    }),
  );
  for (const path of input.manifest.keys()) {
    if (!input.expectedPaths.has(path) && (await view.read(path)) !== undefined) drift.push({ path, reason: 'extra' });
  }
  return drift.sort((a, b) => compareStrings(a.path, b.path));
}

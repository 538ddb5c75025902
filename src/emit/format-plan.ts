import { hashOf } from '../util/hash.js';
import type { PlannedFile } from './plan.js';
import { formatGroup, prettierFormatKeys } from './prettier.js';

/**
 * The plan formatted with prettier, its config resolved from `outDir`: each formatted file's
 * input gains the key of prettier's version and the config it resolves for the file's group
 * ({@link formatGroup}), so an edited `.prettierrc` (or an override for one kind of file)
 * re-formats exactly the files it applies to.
 */
export async function formatPlan(files: readonly PlannedFile[], outDir: string): Promise<PlannedFile[]> {
  const keys = await prettierFormatKeys(outDir, files.filter((file) => file.formatted).map((file) => file.path));
  // A new file that renders as the planned one does (a spread would drop a class's `render`).
  return files.map((file) => (file.formatted ? { path: file.path, input: hashOf(`${file.input}\0${keys.get(formatGroup(file.path))!}`), render: () => file.render(), formatted: true, prettier: outDir } : file));
}

/**
 * Optional formatting with the user's prettier, in-process. Prettier is imported lazily, so
 * runs without `--prettier` never load it.
 */
import { dirname, extname, join } from 'node:path';

import { EmitError } from '../model/errors.js';
import type { EmittedFile } from './emit-files.js';

/**
 * Formats files with prettier, using the configuration prettier resolves for each file's place
 * in `outDir` (`.prettierrc`, `prettier` in package.json, overrides, and `.editorconfig`, as the
 * prettier CLI does). `.prettierignore` is not consulted: formatting was asked for explicitly.
 * The files need not exist; `outDir` is only where the configuration search starts.
 *
 * Prettier's configuration cache is cleared first, so a config edited since the last run in the
 * same process is seen.
 *
 * @throws EmitError naming the file when prettier fails (e.g. a broken config).
 */
export async function formatWithPrettier(
  files: EmittedFile[],
  options: { outDir: string },
): Promise<EmittedFile[]> {
  if (files.length === 0) return [];
  const prettier = await import('prettier');
  await prettier.clearConfigCache();
  const formatted: EmittedFile[] = [];
  // One resolution per folder and extension: resolving for each of 10,000 files costs ~1.6 s,
  // and generated files of one kind share a folder. (Overrides naming single files are ignored.)
  const configs = new Map<string, Promise<Awaited<ReturnType<typeof prettier.resolveConfig>>>>();
  for (const file of files) {
    const filepath = join(options.outDir, ...file.path.split('/'));
    const key = `${dirname(filepath)}\0${extname(filepath)}`;
    try {
      if (!configs.has(key)) configs.set(key, prettier.resolveConfig(filepath, { editorconfig: true }));
      const config = await configs.get(key)!;
      // babel-ts prints these generated files exactly as the typescript parser does (a test
      // checks it) in two thirds of the time; a parser the user configured is kept.
      const parser = config?.parser ?? (filepath.endsWith('.ts') ? 'babel-ts' : undefined);
      formatted.push({ path: file.path, text: await prettier.format(file.text, { ...config, filepath, ...(parser ? { parser } : {}) }) });
    } catch (error) {
      throw new EmitError(`Prettier could not format ${file.path}: ${(error as Error).message}`, {
        hint: 'Check the prettier configuration of the output folder, or run without --format prettier.',
      });
    }
  }
  return formatted;
}

/**
 * Fingerprint of prettier's formatting for the output folder: its version and the config it
 * resolves there. Part of each file's input fingerprint, so a changed `.prettierrc` re-formats.
 */
export async function prettierFormatKey(outDir: string): Promise<string> {
  const prettier = await import('prettier');
  await prettier.clearConfigCache();
  const configs = await Promise.all(
    ['messages/_.ts', 'index.ts', 'package.json', 'README.md'].map((path) =>
      prettier.resolveConfig(join(outDir, ...path.split('/')), { editorconfig: true }).catch(() => 'unreadable'),
    ),
  );
  return JSON.stringify(['prettier', prettier.version, configs]);
}

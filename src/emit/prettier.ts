/**
 * Optional formatting with the user's prettier, in-process. Prettier is imported lazily, so
 * runs without `--prettier` never load it.
 */
import { dirname, extname, join } from 'node:path';

import { EmitError } from '../model/errors.js';
import type { EmittedFile } from './emit-files.js';

/** Formats one file at a time; see {@link createPrettierFormatter}. */
export type FileFormatter = (file: EmittedFile) => Promise<EmittedFile>;

/**
 * A formatter using the configuration prettier resolves for each file's place in `outDir`
 * (`.prettierrc`, `prettier` in package.json, overrides, and `.editorconfig`, as the prettier CLI
 * does). `.prettierignore` is not consulted: formatting was asked for explicitly. The files need
 * not exist; `outDir` is only where the configuration search starts.
 *
 * Prettier's configuration cache is cleared first, so a config edited since the last run in the
 * same process is seen. Worker threads format with a formatter of their own, made by this same
 * function, so their bytes are the bytes of formatting in this thread.
 *
 * The returned function throws EmitError naming the file when prettier fails (e.g. a broken
 * config).
 */
export async function createPrettierFormatter(outDir: string): Promise<FileFormatter> {
  const prettier = await import('prettier');
  await prettier.clearConfigCache();
  // One resolution per folder and extension: resolving for each of 10,000 files costs ~1.6 s,
  // and generated files of one kind share a folder. (Overrides naming single files are ignored.)
  const configs = new Map<string, Promise<Awaited<ReturnType<typeof prettier.resolveConfig>>>>();
  return async (file) => {
    const filepath = join(outDir, ...file.path.split('/'));
    const key = `${dirname(filepath)}\0${extname(filepath)}`;
    try {
      let config = configs.get(key);
      if (config === undefined) configs.set(key, (config = prettier.resolveConfig(filepath, { editorconfig: true })));
      const resolved = await config;
      // babel-ts prints these generated files exactly as the typescript parser does (a test
      // checks it) in two thirds of the time; a parser the user configured is kept.
      const parser = resolved?.parser ?? (filepath.endsWith('.ts') ? 'babel-ts' : undefined);
      const options = { ...resolved, filepath, ...(parser ? { parser } : {}) };
      if (cannotEmbed(file.text, options)) options.embeddedLanguageFormatting = 'off';
      return { path: file.path, text: await prettier.format(file.text, options) };
    } catch (error) {
      throw new EmitError(`Prettier could not format ${file.path}: ${(error as Error).message}`, {
        hint: 'Check the prettier configuration of the output folder, or run without --format prettier.',
      });
    }
  };
}

/** Parsers whose trees prettier prints with its own estree printer. */
const TYPESCRIPT_PARSERS = new Set(['babel-ts', 'typescript']);

/**
 * Whether prettier's search for embedded languages (CSS, GraphQL, HTML, Markdown in tagged
 * templates) can find nothing: the estree printer's `embed` answers only for template literals,
 * and a text without a backtick has none. Turning the search off there cannot change a byte and
 * saves ~7% of prettier's time (it visits every node). Not with plugins, whose printers may
 * embed otherwise, nor for other parsers.
 */
function cannotEmbed(text: string, options: { parser?: unknown; plugins?: unknown[] }): boolean {
  return TYPESCRIPT_PARSERS.has(String(options.parser)) && (options.plugins ?? []).length === 0 && !text.includes('`');
}

/**
 * Formats files with prettier, one by one in this thread, as {@link createPrettierFormatter}
 * describes.
 *
 * @throws EmitError naming the file when prettier fails (e.g. a broken config).
 */
export async function formatWithPrettier(
  files: EmittedFile[],
  options: { outDir: string },
): Promise<EmittedFile[]> {
  if (files.length === 0) return [];
  const format = await createPrettierFormatter(options.outDir);
  const formatted: EmittedFile[] = [];
  for (const file of files) formatted.push(await format(file));
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

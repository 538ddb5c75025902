/**
 * Optional formatting with the user's prettier, in-process. Prettier is imported lazily, so
 * runs without `--prettier` never load it.
 */
import { dirname, extname, join } from 'node:path';
import { msg } from '../model/message.js';

import { EmitError } from '../model/errors.js';
import type { EmittedFile } from './emit-files.js';
import { GIT_ATTRIBUTES_PATH } from './git-attributes.js';
import { canBatch, canJoin, joinTexts, splitFormatted } from './prettier-batch.js';

/** Formats files, in the order given; see {@link createPrettierFormatter}. */
export type FilesFormatter = (files: readonly EmittedFile[]) => Promise<EmittedFile[]>;

/**
 * At most this many files share one prettier call (see `prettier-batch.ts`): enough for the
 * per-call cost to be shared (bench/README.md), and few enough that the worst case (a batch that
 * does not cut apart cleanly, formatted again file by file) stays cheap.
 */
const MAX_BATCH_FILES = 24;
const MAX_BATCH_CHARS = 64_000;

/**
 * A formatter using the configuration prettier resolves for each file's place in `outDir`
 * (`.prettierrc`, `prettier` in package.json, overrides, and `.editorconfig`, as the prettier CLI
 * does). `.prettierignore` is not consulted: formatting was asked for explicitly. The files need
 * not exist; `outDir` is only where the configuration search starts.
 *
 * Each file gets the bytes of formatting it alone; files of one folder and kind are formatted
 * several to a call where that gives the same bytes (`prettier-batch.ts`). A file of a kind
 * prettier does not format ({@link prettierFormats}) is returned as it is, in its place.
 *
 * Prettier's configuration cache is cleared first, so a config edited since the last run in the
 * same process is seen.
 *
 * The returned function throws EmitError naming the file when prettier fails (e.g. a broken
 * config).
 */
export async function createPrettierFormatter(
  outDir: string,
  observe: {
    /** Called before each prettier call with how many files it formats (tests and profiling). */
    onFormatCall?: (files: number) => void;
  } = {},
): Promise<FilesFormatter> {
  const prettier = await import('prettier');
  await prettier.clearConfigCache();
  // One resolution per folder and extension: prettier resolves by walking up the folders, and
  // generated files of one kind share a folder. (Overrides naming single files are ignored.)
  const configs = new Map<string, Promise<FormatOptions>>();
  const optionsFor = (file: EmittedFile): { key: string; options: Promise<FormatOptions> } => {
    const filepath = join(outDir, ...file.path.split('/'));
    const key = `${dirname(filepath)}\0${extname(filepath)}`;
    let options = configs.get(key);
    if (options === undefined) configs.set(key, (options = resolveOptions(prettier, filepath)));
    return { key, options };
  };
  const failed = (path: string, error: unknown) =>
    new EmitError(msg`Prettier could not format ${path}: ${(error as Error).message}`, {
      hint: msg`Check the prettier configuration of the output folder, or run without --prettier.`,
    });
  const formatAlone = async (file: EmittedFile, shared: FormatOptions): Promise<EmittedFile> => {
    const options = { ...shared, filepath: join(outDir, ...file.path.split('/')) };
    try {
      observe.onFormatCall?.(1);
      return { path: file.path, text: await prettier.format(file.text, options) };
    } catch (error) {
      throw failed(file.path, error);
    }
  };
  const formatBatch = async (batch: readonly EmittedFile[], shared: FormatOptions): Promise<EmittedFile[]> => {
    if (batch.length > 1) {
      const text = joinTexts(batch.map((f) => f.text));
      const options = { ...shared, filepath: join(outDir, ...batch[0]!.path.split('/')) };
      observe.onFormatCall?.(batch.length);
      const parts = await prettier.format(text, options).then(
        (formatted) => splitFormatted(formatted, batch.length),
        () => undefined,
      );
      if (parts !== undefined) return batch.map((file, i) => ({ path: file.path, text: parts[i]! }));
    }
    // Alone, as a fallback too: a batch prettier rejects names the file it cannot format.
    const formatted: EmittedFile[] = [];
    for (const file of batch) formatted.push(await formatAlone(file, shared));
    return formatted;
  };
  return async (files) => {
    const formatted: EmittedFile[] = new Array<EmittedFile>(files.length);
    // One open batch per folder and extension: the kinds of one folder interleave in path order
    // (`A.d.ts`, `A.js`, `B.d.ts` …), and a batch that closed at each change of kind held one file.
    const open = new Map<string, { items: { file: EmittedFile; at: number }[]; chars: number; options: FormatOptions }>();
    const flush = async (key: string) => {
      const batch = open.get(key);
      if (batch === undefined) return;
      open.delete(key);
      const done = await formatBatch(
        batch.items.map((item) => item.file),
        batch.options,
      );
      batch.items.forEach((item, i) => (formatted[item.at] = done[i]!));
    };
    for (const [at, file] of files.entries()) {
      if (!prettierFormats(file.path)) {
        formatted[at] = file;
        continue;
      }
      const { key, options: pending } = optionsFor(file);
      let options: FormatOptions;
      try {
        options = await pending;
      } catch (error) {
        throw failed(file.path, error);
      }
      if (!canBatch(options) || !canJoin(file.text)) {
        formatted[at] = await formatAlone(file, options);
        continue;
      }
      const batch = open.get(key);
      if (batch !== undefined && (batch.items.length >= MAX_BATCH_FILES || batch.chars + file.text.length > MAX_BATCH_CHARS)) await flush(key);
      const into = open.get(key) ?? { items: [], chars: 0, options };
      open.set(key, into);
      into.items.push({ file, at });
      into.chars += file.text.length;
    }
    for (const key of [...open.keys()]) await flush(key);
    return formatted;
  };
}

/** Prettier's options for one file: its resolved config, and a parser for `.ts` and `.mts` files. */
type FormatOptions = import('prettier').Options & Record<string, unknown>;

async function resolveOptions(prettier: typeof import('prettier'), filepath: string): Promise<FormatOptions> {
  const resolved = await prettier.resolveConfig(filepath, { editorconfig: true });
  // babel-ts prints these generated files exactly as the typescript parser does (a test
  // checks it), and faster (bench/README.md); `.js` gets babel, the parser prettier infers for
  // it, named so that the files can share a call; a parser the user configured is kept.
  const parser = resolved?.parser ?? (filepath.endsWith('.ts') || filepath.endsWith('.mts') ? 'babel-ts' : filepath.endsWith('.js') ? 'babel' : undefined);
  return { ...resolved, ...(parser ? { parser } : {}) } as FormatOptions;
}

/**
 * Whether prettier formats a file of this kind: the output's `.gitattributes` is in no language
 * prettier parses, so it stays as written (the plan marks it unformatted too).
 */
function prettierFormats(path: string): boolean {
  return path !== GIT_ATTRIBUTES_PATH;
}

/**
 * Formats files with prettier, as {@link createPrettierFormatter} describes.
 *
 * @throws EmitError naming the file when prettier fails (e.g. a broken config).
 */
export async function formatWithPrettier(
  files: EmittedFile[],
  options: { outDir: string },
): Promise<EmittedFile[]> {
  if (files.length === 0) return [];
  const format = await createPrettierFormatter(options.outDir);
  return format(files);
}

/** Which config prettier resolves alike: files of one folder and one kind (`.d.ts` apart from `.ts`). */
export function formatGroup(path: string): string {
  const slash = path.lastIndexOf('/');
  const base = path.slice(slash + 1);
  const kind = base.endsWith('.d.ts') ? '.d.ts' : base.slice(base.lastIndexOf('.'));
  return `${path.slice(0, Math.max(slash, 0))}\0${kind}`;
}

/**
 * The key of prettier's formatting of each group ({@link formatGroup}) of `paths` in the output
 * folder: prettier's version and the config it resolves for the group's first file. Part of the
 * input of each file it formats, so a changed `.prettierrc` re-formats the files it applies to.
 * (Overrides naming single files are not told apart; see {@link createPrettierFormatter}.)
 */
export async function prettierFormatKeys(outDir: string, paths: readonly string[]): Promise<Map<string, string>> {
  const prettier = await import('prettier');
  await prettier.clearConfigCache();
  const firsts = new Map<string, string>();
  for (const path of paths) if (!firsts.has(formatGroup(path))) firsts.set(formatGroup(path), path);
  const keys = new Map<string, string>();
  for (const [group, path] of firsts) {
    const config = await prettier.resolveConfig(join(outDir, ...path.split('/')), { editorconfig: true }).catch(() => 'unreadable');
    keys.set(group, JSON.stringify(['prettier', prettier.version, config]));
  }
  return keys;
}

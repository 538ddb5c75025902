/**
 * A TypeScript compiler host that sees one folder (where a project finds the generated output:
 * the output folder, or an installed copy of the generated package) as a set of files held in
 * memory, and everything else as it is on disk. Nothing is written.
 */
import { createRequire } from 'node:module';
import { resolve, sep } from 'node:path';
import { ts } from 'ts-morph';

/** Generated files laid over a folder: paths relative to it (POSIX), and their texts. */
export type Overlay = ReadonlyMap<string, string>;

/**
 * Parsed source files shared by the hosts of one impact check, so the second program reuses the
 * first one's parse of every file that is the same in both (the consumer's own files, and the
 * generated files that did not change) through `oldProgram`.
 */
export class SourceFileCache {
  readonly #files = new Map<string, ts.SourceFile>();

  /** The parse of `text` at `fileName`, made once for each distinct text. */
  get(fileName: string, text: string, languageVersion: ts.ScriptTarget | ts.CreateSourceFileOptions): ts.SourceFile {
    // A file's parse depends on its module format under nodenext, as well as on its text.
    const format = typeof languageVersion === 'object' ? String(languageVersion.impliedNodeFormat) : '';
    const key = `${fileName}\0${format}\0${text}`;
    let file = this.#files.get(key);
    if (file === undefined) {
      file = ts.createSourceFile(fileName, text, languageVersion, true);
      this.#files.set(key, file);
    }
    return file;
  }
}

/**
 * TypeScript's own declaration files (`lib.es2022.d.ts` …) and their parses. ts-morph's bundled
 * TypeScript has none on disk: they ship as data in `@ts-morph/common`, which is found from
 * ts-morph itself (it is ts-morph's dependency, not schema-sync's), and are served from a folder
 * that exists only in these hosts. Each lib file is parsed (and, by the first program that uses
 * the parse, bound) once for each way a program reads it, then shared by every program that
 * reads it so: parsing and binding `lib.es5.d.ts` and the rest again costs each impact check more
 * than checking a consumer's project does.
 */
export class LibFiles {
  /** The folder the hosts serve them from. */
  static readonly folder = '/__schema-sync__/typescript/lib';
  static #shared: LibFiles | undefined;
  readonly #texts: ReadonlyMap<string, string>;
  readonly #parsed = new Map<string, ts.SourceFile>();

  /**
   * The process's one instance, made on first use: a memo of data that ships with ts-morph and
   * of parses that depend on nothing but the text and the options they are keyed by, so every
   * impact check of the process (a run with several projects, a library caller checking again)
   * shares it. It holds one parse a lib file for each way it is read: bounded.
   */
  static shared(): LibFiles {
    return (LibFiles.#shared ??= new LibFiles());
  }

  constructor() {
    const common = createRequire(createRequire(import.meta.url).resolve('ts-morph'))('@ts-morph/common') as { getLibFiles(): { fileName: string; text: string }[] };
    this.#texts = new Map(common.getLibFiles().map((file) => [`${LibFiles.folder}/${file.fileName}`, file.text]));
  }

  /** The text of a lib file at its path in {@link LibFiles.folder}; undefined for any other path. */
  textOf(path: string): string | undefined {
    return this.#texts.get(path);
  }

  /**
   * The parse of the lib file at `path` as a program with `options` reads it (the language
   * version, module format and JSDoc mode it asks for, and `moduleDetection`, which decides
   * what a file is), made once for each; undefined for any other path.
   */
  sourceFile(path: string, languageVersion: ts.ScriptTarget | ts.CreateSourceFileOptions, options: ts.CompilerOptions): ts.SourceFile | undefined {
    const text = this.#texts.get(path);
    if (text === undefined) return undefined;
    const how = typeof languageVersion === 'object' ? languageVersion : { languageVersion };
    const key = `${path}\0${how.languageVersion}\0${how.impliedNodeFormat}\0${how.jsDocParsingMode}\0${options.moduleDetection}`;
    let file = this.#parsed.get(key);
    if (file === undefined) {
      file = ts.createSourceFile(path, text, languageVersion, true);
      this.#parsed.set(key, file);
    }
    return file;
  }
}

/** The absolute, forward-slash form TypeScript uses for paths. */
export function tsPath(path: string): string {
  return resolve(path).split(sep).join('/');
}

/**
 * A compiler host for `options` in which the folder `root` holds exactly the files of `overlay`.
 */
export function overlayHost(options: ts.CompilerOptions, root: string, overlay: Overlay, cache: SourceFileCache, libs: LibFiles): ts.CompilerHost {
  const base = ts.createCompilerHost(options, true);
  const top = tsPath(root);
  const relativeOf = (path: string): string | undefined => {
    const full = tsPath(path);
    if (full === top) return '';
    return full.startsWith(`${top}/`) ? full.slice(top.length + 1) : undefined;
  };
  const folders = new Set<string>(['']);
  for (const path of overlay.keys()) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join('/'));
  }
  const textOf = (path: string): string | undefined => {
    const relative = relativeOf(path);
    if (relative !== undefined) return overlay.get(relative);
    return libs.textOf(path) ?? base.readFile(path);
  };
  return {
    ...base,
    getDefaultLibLocation: () => LibFiles.folder,
    getDefaultLibFileName: (compilerOptions) => `${LibFiles.folder}/${ts.getDefaultLibFileName(compilerOptions)}`,
    fileExists: (path) => {
      const relative = relativeOf(path);
      if (relative !== undefined) return overlay.has(relative);
      return libs.textOf(path) !== undefined || base.fileExists(path);
    },
    readFile: textOf,
    directoryExists: (path) => {
      const relative = relativeOf(path);
      if (relative !== undefined) return folders.has(relative);
      // The folders above it exist too (an installed package's `node_modules/@scope` may not be on disk).
      return top.startsWith(`${tsPath(path)}/`) || (base.directoryExists?.(path) ?? ts.sys.directoryExists(path));
    },
    getDirectories: (path) => {
      const relative = relativeOf(path);
      if (relative === undefined) {
        const onDisk = base.directoryExists?.(path) === false ? [] : (base.getDirectories?.(path) ?? []);
        const above = `${tsPath(path)}/`;
        const next = top.startsWith(above) ? top.slice(above.length).split('/')[0]! : undefined;
        return next === undefined || onDisk.includes(next) ? onDisk : [...onDisk, next];
      }
      const prefix = relative === '' ? '' : `${relative}/`;
      return [...folders].filter((folder) => folder.startsWith(prefix) && folder !== relative && !folder.slice(prefix.length).includes('/')).map((folder) => folder.slice(prefix.length));
    },
    realpath: (path) => (relativeOf(path) === undefined ? (base.realpath?.(path) ?? path) : path),
    getSourceFile: (fileName, languageVersion) => {
      const lib = libs.sourceFile(fileName, languageVersion, options);
      if (lib !== undefined) return lib;
      const text = textOf(fileName);
      return text === undefined ? undefined : cache.get(fileName, text, languageVersion);
    },
    writeFile: () => undefined,
  };
}

/**
 * The emit stage: descriptors in, file texts out. Pure apart from reading templates; writing is
 * the `write` stage's job. ts-morph is imported lazily so commands that emit nothing never load
 * it; each file is built as a plain structure and printed once with `printStructure`.
 */
import { createRequire } from 'node:module';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { compareStrings, type Descriptor, sortDescriptors } from '../model/descriptor.js';
import type { ListingSource } from '../model/source.js';
import { checkDescriptors } from './check-descriptors.js';
import { indexFileStructure, typesFileStructure } from './index-file.js';
import { commentText } from './literals.js';
import { createMessageFileBuilder, type TsMorph } from './message-file.js';
import { planNames } from './naming.js';
import { packageFiles, validatePackageName } from './package-files.js';
import { loadTemplates } from './templates.js';
import { PRINT_OPTIONS } from './writers.js';

/** Options of {@link emitFiles}. */
export interface EmitOptions {
  /** The message types, in any order: the output does not depend on it. */
  messages: readonly Descriptor[];
  /** Where the listing came from; its `baseUrl` (credential-free) goes into the banner. */
  source: ListingSource;
  /**
   * A folder whose `banner.txt` / `package-readme.md` override the built-in templates.
   * @default the `templates/` folder of schema-sync
   */
  templatesDir?: string;
  /**
   * When set, also emit `package.json` and `README.md` so the folder can be consumed as the
   * package of this name. Must be a valid npm package name.
   * @example "@acme/schema"
   */
  packageName?: string;
}

/** One generated file. */
export interface EmittedFile {
  /** POSIX path relative to the output folder, e.g. `messages/Order.ts`. */
  path: string;
  /** The full text, LF line ends, ending with a newline. */
  text: string;
}

function byPath(a: EmittedFile, b: EmittedFile): number {
  return compareStrings(a.path, b.path);
}

async function emit(options: EmitOptions, only: ReadonlySet<string> | undefined, shared = true, onPrinted?: (files: EmittedFile[]) => void): Promise<EmittedFile[]> {
  const { source, templatesDir, packageName } = options;
  if (packageName !== undefined) validatePackageName(packageName);
  const descriptors = sortDescriptors(options.messages);
  checkDescriptors(descriptors);
  const plan = planNames(descriptors.map((d) => d.name));

  const templates = await loadTemplates(templatesDir);
  const tsMorph = loadTsMorph();
  const { printStructure } = tsMorph;
  const bannerValues = {
    baseUrl: source.baseUrl === undefined ? undefined : commentText(source.baseUrl),
    packageName: packageName === undefined ? undefined : commentText(packageName),
  };
  const sharedBanner = templates.banner.render(bannerValues);
  const messageFileStructure = createMessageFileBuilder(tsMorph);

  const files: EmittedFile[] = [];
  let handed = 0;
  const handOn = () => {
    if (onPrinted !== undefined && files.length > handed) onPrinted(files.slice(handed));
    handed = files.length;
  };
  for (const descriptor of descriptors) {
    if (only !== undefined && !only.has(descriptor.name)) continue;
    // Printing 10,000 files takes a second or more: hand on what is printed, and let signals
    // (Ctrl-C) through, now and then.
    if (files.length - handed >= PRINTED_BATCH) {
      handOn();
      await yieldToEventLoop();
    }
    const planned = plan.get(descriptor.name)!;
    const banner = templates.banner.render({
      ...bannerValues,
      schemaHash: commentText(descriptor.schemaHash),
      messageName: commentText(descriptor.name),
    });
    files.push({
      path: `messages/${planned.fileStem}.ts`,
      text: printStructure(messageFileStructure(descriptor, planned, banner), PRINT_OPTIONS),
    });
  }
  if (shared) {
    files.push(
      {
        path: 'index.ts',
        text: printStructure(indexFileStructure(tsMorph, { descriptors, plan, banner: sharedBanner }), PRINT_OPTIONS),
      },
      { path: 'types.ts', text: printStructure(typesFileStructure(tsMorph, sharedBanner), PRINT_OPTIONS) },
    );
    if (packageName !== undefined) {
      files.push(
        ...packageFiles({
          packageName,
          baseUrl: source.baseUrl,
          names: descriptors.map((d) => [d.name, plan.get(d.name)!] as const),
          templates,
        }),
      );
    }
  }
  handOn();
  return files.sort(byPath);
}

/** How many printed files {@link emit} hands on at a time. */
const PRINTED_BATCH = 500;

/**
 * ts-morph through `require`, not `import()`: it is CommonJS, and Node's ESM loader scans its
 * 9 MB for export names (~0.15 s) and bypasses the CLI's code cache.
 */
function loadTsMorph(): TsMorph {
  return createRequire(import.meta.url)('ts-morph') as TsMorph;
}

/**
 * All generated files, sorted by path: `messages/<Stem>.ts` per message type, `index.ts`,
 * `types.ts`, and `package.json` + `README.md` when `packageName` is set.
 *
 * @throws EmitError for names that clash, invalid descriptors, a bad package name or template.
 */
export function emitFiles(options: EmitOptions): Promise<EmittedFile[]> {
  return emit(options, undefined);
}

/**
 * Like {@link emitFiles}, but only the message files of the names in `only` (names without a
 * message, e.g. removed ones, are ignored), plus `index.ts`, `types.ts` and the package files,
 * which depend on the whole listing. Names are still planned over all messages, so a file's
 * path and text are the same as from {@link emitFiles}. `shared: false` leaves out the
 * whole-listing files (used when several workers split the messages).
 */
export function emitFilesFor(
  options: EmitOptions & {
    only: ReadonlySet<string>;
    shared?: boolean;
    /** Called with each batch of files as they are printed (every file exactly once, before the result). */
    onPrinted?: (files: EmittedFile[]) => void;
  },
): Promise<EmittedFile[]> {
  return emit(options, options.only, options.shared ?? true, options.onPrinted);
}

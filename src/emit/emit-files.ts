/**
 * The emit stage's entry points: every file of a plan rendered ({@link emitFiles}), or some
 * ({@link renderPlanned}), formatted with prettier where the plan says so. Pure apart from
 * reading templates (and prettier's config); writing is the `write` stage's job.
 */
import { compareStrings, sortDescriptors, type Descriptor } from '../model/descriptor.js';
import { checkCallerDescriptors } from './emit-input.js';
import type { ChangelogSection, Int64Type, ModuleFormat, OutputTarget } from '../model/lockfile.js';
import type { ListingSource } from '../model/source.js';
import { plan, type PlannedFile } from './plan.js';
import { createPrettierFormatter } from './prettier.js';

/** Options of {@link emitFiles}. */
export interface EmitOptions {
  /** The message types, in any order: the output does not depend on it. */
  messages: readonly Descriptor[];
  /** Where the listing came from; its normalised `baseUrl` goes only into a package's README. */
  source: ListingSource;
  /**
   * A folder whose `banner.txt` / `package-readme.md` override the built-in templates.
   * @default the `templates/` folder of schema-sync
   */
  templatesDir?: string;
  /**
   * When set, also emit `package.json`, `README.md` and `CHANGELOG.md` so the folder can be
   * consumed as the package of this name. Must be a valid npm package name.
   * @example "@acme/schema"
   */
  packageName?: string;
  /**
   * Also generate each message type's record interfaces (`<Name>Record`, `<Name>PKey`) from the
   * field descriptors it carries (`Descriptor.fields`), which every message must then have.
   * @default false
   */
  fields?: boolean;
  /**
   * How the record types type `Long` and `ULong` fields (64-bit integers, beyond 2^53 in real
   * records): `number`, as `JSON.parse` reads them (losing precision there), or `bigint` or
   * `string`, for records read with a JSON parser that keeps big integers.
   * @default "number"
   */
  int64?: Int64Type;
  /**
   * What the output is written as: `ts` (TypeScript modules) or `js+dts` (ES modules with
   * declaration files that keep every literal type).
   * @default "js+dts" with a `packageName`, else "ts"
   */
  target?: OutputTarget;
  /**
   * What the project that compiles the generated `.ts` files (target `ts`) makes of them: `esm`
   * (the folder's package.json says `"type": "module"`) or `commonjs` (`"type": "commonjs"`:
   * TypeScript compiles them to `require`/`exports`, which run from any `outDir`).
   * @default "esm"
   */
  moduleFormat?: ModuleFormat;
  /** The package's version, `x.y.z` (with `packageName` only). @default "1.0.0" */
  packageVersion?: string;
  /** The sections of the package's CHANGELOG.md, newest first (with `packageName` only). @default [] */
  changelog?: readonly ChangelogSection[];
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

/**
 * All generated files, sorted by path: `messages/<Stem>.ts` per message type, `index.ts` and
 * `types.ts` (target `ts`), or `messages/<Stem>.js` and `.d.ts`, `index.js`, `index.d.ts` and
 * `types.d.ts` (target `js+dts`); and `package.json`, `README.md`, `CHANGELOG.md` when
 * `packageName` is set, else a `package.json` that marks the folder's files as ES modules (or CommonJS, `moduleFormat`);
 * and `.gitattributes`, which tells Git how to treat them.
 *
 * @throws EmitError for names that clash, invalid descriptors, a bad package name or template.
 */
export async function emitFiles(options: EmitOptions): Promise<EmittedFile[]> {
  const { messages, source, ...settings } = options;
  // Descriptors from a library caller are checked before anything reads them (the plan checks
  // them only before it renders: a run's come from a validated lockfile).
  checkCallerDescriptors(sortDescriptors(messages));
  return renderPlanned(await plan({ messages, source }, settings));
}

/**
 * The texts of planned files, sorted by path: each rendered, then formatted with prettier when
 * the plan says so (files of one folder and kind several to a call; see `prettier.ts`).
 *
 * @throws EmitError as {@link emitFiles} does, or naming the file prettier cannot format.
 */
export async function renderPlanned(files: readonly PlannedFile[]): Promise<EmittedFile[]> {
  return renderEach(files, (file) => ({ path: file.path, text: file.render() }));
}

async function renderEach(files: readonly PlannedFile[], render: (file: PlannedFile) => EmittedFile): Promise<EmittedFile[]> {
  const rendered = files.map(render);
  const outDirs = [...new Set(files.flatMap((file) => (file.prettier === undefined ? [] : [file.prettier])))];
  if (outDirs.length === 0) return rendered.sort(byPath);
  const formatted = rendered.filter((_, i) => files[i]!.prettier === undefined);
  for (const outDir of outDirs) {
    const format = await createPrettierFormatter(outDir);
    formatted.push(...(await format(rendered.filter((_, i) => files[i]!.prettier === outDir))));
  }
  return formatted.sort(byPath);
}

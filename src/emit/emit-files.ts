/**
 * The emit stage: descriptors in, file texts out. Pure apart from reading templates; writing is
 * the `write` stage's job. ts-morph is imported lazily so commands that emit nothing never load
 * it; each file is built as a plain structure and printed once with `printStructure`.
 */
import { compareStrings, type Descriptor, sortDescriptors } from '../model/descriptor.js';
import type { ChangelogSection, OutputTarget } from '../model/lockfile.js';
import { assertPackageVersion, INITIAL_PACKAGE_VERSION } from '../model/package-version.js';
import type { ListingSource } from '../model/source.js';
import { checkCallerDescriptors, checkUniqueNumbers } from './emit-input.js';
import { indexFileText, typesFileText } from './index-file.js';
import { commentText } from './literals.js';
import { messageFileText } from './message-file.js';
import { planNames } from './naming.js';
import { MODULE_MARKER_PATH, moduleMarkerFile } from './module-marker.js';
import { checkRecords } from './record-types.js';
import { packageFiles, validatePackageName } from './package-files.js';
import { moduleKinds, modulePath, targetOf, typesPath } from './targets.js';
import { formatWithPrettier } from './prettier.js';
import { loadTemplates } from './templates.js';

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
   * What the output is written as: `ts` (TypeScript modules) or `js+dts` (ES modules with
   * declaration files that keep every literal type).
   * @default "js+dts" with a `packageName`, else "ts"
   */
  target?: OutputTarget;
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

/** Which files {@link render} prints: the message modules of `only`, and files whose path is in `paths`. */
interface Selection {
  only: ReadonlySet<string>;
  paths: ReadonlySet<string>;
}

async function render(options: EmitOptions, selection?: Selection): Promise<EmittedFile[]> {
  const { source, templatesDir, packageName, fields = false } = options;
  if (packageName !== undefined) validatePackageName(packageName);
  if (options.packageVersion !== undefined) assertPackageVersion(options.packageVersion);
  const descriptors = sortDescriptors(options.messages);
  checkUniqueNumbers(descriptors);
  const plan = planNames(descriptors.map((d) => d.name));
  if (fields) checkRecords(descriptors, plan);
  const wanted = (path: string) => selection === undefined || selection.paths.has(path);

  const templates = await loadTemplates(templatesDir);
  const bannerValues = {
    packageName: packageName === undefined ? undefined : commentText(packageName),
  };
  const sharedBanner = templates.banner.render(bannerValues);

  const target = targetOf(options);
  const kinds = moduleKinds(target);
  const files: EmittedFile[] = [];
  for (const descriptor of descriptors) {
    if (selection !== undefined && !selection.only.has(descriptor.name)) continue;
    const planned = plan.get(descriptor.name)!;
    const stem = `messages/${planned.fileStem}`;
    const banner = templates.banner.render({
      ...bannerValues,
      schemaHash: commentText(descriptor.schemaHash),
      messageName: commentText(descriptor.name),
    });
    for (const kind of kinds) {
      const path = modulePath(stem, kind);
      if (!wanted(path)) continue;
      files.push({ path, text: messageFileText(descriptor, planned, banner, kind, { fields }) });
    }
  }
  for (const kind of kinds) {
    const path = modulePath('index', kind);
    if (wanted(path)) files.push({ path, text: indexFileText({ descriptors, plan, banner: sharedBanner, kind, fields }) });
  }
  if (wanted(typesPath(target))) files.push({ path: typesPath(target), text: typesFileText(sharedBanner, { fields }) });
  if (packageName !== undefined) {
    const names = descriptors.map((d) => [d.name, plan.get(d.name)!] as const);
    const { packageVersion = INITIAL_PACKAGE_VERSION, changelog = [] } = options;
    files.push(...packageFiles({ packageName, packageVersion, changelog, target, baseUrl: source.baseUrl, names, templates }).filter((file) => wanted(file.path)));
  } else if (wanted(MODULE_MARKER_PATH)) {
    files.push(moduleMarkerFile());
  }
  return files.sort(byPath);
}

/**
 * All generated files, sorted by path: `messages/<Stem>.ts` per message type, `index.ts` and
 * `types.ts` (target `ts`), or `messages/<Stem>.js` and `.d.ts`, `index.js`, `index.d.ts` and
 * `types.d.ts` (target `js+dts`); and `package.json`, `README.md`, `CHANGELOG.md` when
 * `packageName` is set, else a `package.json` that marks the folder's files as ES modules.
 *
 * @throws EmitError for names that clash, invalid descriptors, a bad package name or template.
 */
export async function emitFiles(options: EmitOptions): Promise<EmittedFile[]> {
  // A library caller's descriptors are checked here; the fetch stage and the lockfile check theirs.
  checkCallerDescriptors(sortDescriptors(options.messages));
  return render(options);
}

/** Options of {@link renderSelected}. */
export interface RenderSelectedOptions {
  emit: EmitOptions;
  /** Message types whose modules are wanted (names without a message, e.g. removed ones, are ignored). */
  only: ReadonlySet<string>;
  /** The paths wanted: message modules of `only`, and whole-listing files (`index.ts`, …). */
  paths: ReadonlySet<string>;
  /** When set, format with prettier, its configuration resolved from this folder. */
  prettierOutDir?: string;
}

/**
 * The files of {@link emitFiles} whose paths are in `paths` (message modules only for the names
 * in `only`), formatted with prettier when `prettierOutDir` is given (all but the module
 * marker), sorted by path. Names are
 * planned over all messages, so every file has the path and bytes {@link emitFiles} gives it.
 *
 * @throws EmitError as {@link emitFiles} does, or naming the file prettier cannot format.
 */
export async function renderSelected(options: RenderSelectedOptions): Promise<EmittedFile[]> {
  const files = await render(options.emit, options);
  if (options.prettierOutDir === undefined) return files;
  // The module marker is schema-sync's own fixed JSON, not code in the user's style (and a
  // parser configured for TypeScript would fail on it): prettier leaves it alone.
  const marker = options.emit.packageName === undefined ? files.filter((file) => file.path === MODULE_MARKER_PATH) : [];
  const formatted = await formatWithPrettier(files.filter((file) => !marker.includes(file)), { outDir: options.prettierOutDir });
  return [...marker, ...formatted].sort(byPath);
}

/**
 * The emit stage's entry points: every file of a plan rendered ({@link emitFiles}), or some
 * ({@link renderPlanned}), formatted with prettier where the plan says so. Pure apart from
 * reading templates (and prettier's config); writing is the `write` stage's job.
 */
import { compareStrings, sortDescriptors, type Descriptor } from '../model/descriptor.js';
import { checkCallerDescriptors } from './emit-input.js';
import type { ListingSource } from '../model/source.js';
import { plan, type PlannedFile, type PlanSettings } from './plan.js';
import { createPrettierFormatter } from './prettier.js';

/**
 * Options of {@link emitFiles}: the message types, where they came from, and the generation
 * settings (as the settings table documents each: `package`, `packageVersion`, `target`, `fields`,
 * `int64`, `moduleFormat` …), with the package's changelog and the templates' folder.
 */
export type EmitOptions = Omit<PlanSettings, 'scope'> & {
  /** The message types, in any order: the output does not depend on it. */
  messages: readonly Descriptor[];
  /** Where the listing came from; its normalised `baseUrl` goes only into a package's README. */
  source: ListingSource;
};

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
 * `package` is set, else a `package.json` that marks the folder's files as ES modules (or CommonJS, `moduleFormat`);
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

/**
 * The one plan of the output: every file the output folder must hold, each with the hash of
 * exactly the value its renderer reads and a closure that renders it from that value. A file's
 * freshness (its input against the manifest's) and its text therefore cannot disagree, and no
 * scheme constant needs raising by hand: what a renderer reads is its input, and the renderer's
 * own version (schema-sync's version and the renderer's id) is part of it.
 */
import type { Descriptor } from '../model/descriptor.js';
import { compareStrings } from '../model/descriptor.js';
import type { FieldDescriptor } from '../model/field.js';
import { hashOf } from '../util/hash.js';
import type { GenerationSettings, Int64Type } from '../model/lockfile.js';
import type { ListingSource } from '../model/source.js';
import { assertPackageVersion, INITIAL_PACKAGE_VERSION } from './package-version.js';
import { inScope, type Scope } from '../model/scope.js';
import { VERSION } from '../util/version.js';
import { checkUniqueNumbers } from './emit-input.js';
import { indexFileText, typesFileText, type IndexEntry } from './index-file.js';
import { hasQueryFields } from './record-query-fields.js';
import { GIT_ATTRIBUTES_PATH, GIT_ATTRIBUTES_TEXT } from './git-attributes.js';
import { messageFileText } from './message-file.js';
import { fieldView, MessageModuleFile, MessageModules, moduleViewKey } from './message-modules.js';
import { MODULE_MARKER_PATH, moduleMarkerFile } from './module-marker.js';
import { planNames, type PlannedName } from './naming.js';
import { changelogText, packageJsonText, readmeText, validatePackageName } from './package-files.js';
import { int64Of } from './record-field-types.js';
import { RECORDS_RUNTIME } from './record-checks.js';
import { recordsRuntimeText } from './records-runtime-file.js';
import { checkRecords, keyFieldsOf, recordFacts } from './record-types.js';
import { moduleKinds, modulePath, targetOf, typesPath, type ModuleKind } from './targets.js';
import { loadTemplates } from './templates.js';
import { bannerOf } from './banner.js';

/** A file the output folder must hold. */
export interface PlannedFile {
  /** POSIX path relative to the output folder. */
  path: string;
  /** Hash of the renderer's version and of the value {@link PlannedFile.render} reads: equal inputs, equal bytes. */
  input: string;
  /** The file's text (before any formatting), from the value its input hashes. */
  render(): string;
  /** Whether the file is code or docs in the user's style, which prettier formats when asked to (not the module marker or `.gitattributes`). */
  formatted: boolean;
  /** When set, prettier formats the rendered text, its config resolved from this folder (see `format-plan.ts`). */
  prettier?: string;
}

/** The lockfile a plan is made of. */
export interface PlanInput {
  /** Its message types (those in the settings' scope are planned). */
  messages: readonly Descriptor[];
  source: ListingSource;
  /** The file stems it records (`Lockfile.fileStems`). */
  fileStems?: ReadonlyMap<string, string> | undefined;
}

/**
 * What a plan may take from the plan of an earlier lockfile with the same message types and file
 * stems, under the same settings: the input of the modules of each type whose entry did not
 * change (same entry, same descriptor; same names, same planned names: same input), and the
 * index's when the types that changed show in it as before. A pull that changes a few types
 * then hashes only their views.
 */
export interface EarlierPlan {
  /** Whether the type with this name has the same lockfile entry as in the earlier lockfile. */
  unchanged(name: string): boolean;
  /** The input the earlier plan gave the file at `path`, if it had one. */
  inputOf(path: string): string | undefined;
  /** The descriptor of the type with this name in the earlier lockfile, when known without a full parse. */
  descriptorOf(name: string): Descriptor | undefined;
}

/**
 * What decides the output besides the lockfile's descriptors and source: the generation settings
 * the lockfile records (`package`, `packageVersion`, `changelog`, `target`, `fields`, `int64`,
 * `moduleFormat` …, see `config/settings-table.ts`), the templates' folder and the scope.
 */
export type PlanSettings = Omit<GenerationSettings, 'templates' | 'prettier' | 'include' | 'exclude'> & {
  /**
   * A folder whose `banner.txt` / `package-readme.md` override the built-in templates.
   * @default the `templates/` folder of schema-sync
   */
  templatesDir?: string | undefined;
  /** The run's redactor, over the templates' text (outside text, as a server's is). @default none */
  redact?: ((text: string) => string) | undefined;
  /** Which message types are generated. @default all */
  scope?: Scope | undefined;
};

/**
 * The renderers, each with the version of its code: schema-sync's version and the renderer's
 * id. A file's input starts with its renderer's, so a new schema-sync renders every file anew.
 * A renderer whose bytes change within a version names its revision (`package.json 2`: it
 * exports `./messages/*.js`), so a folder made before is rendered anew too.
 */
const RENDERERS = {
  // 2: TypeScript names each exported constant's type (isolatedDeclarations); 3: TypeScript
  // modules say `@ts-nocheck` (writers.ts, NO_CHECK_LINES), and a message module closes a block
  // comment its banner leaves open, as the index does.
  message: `message-module 3 ${VERSION}`,
  index: `index 3 ${VERSION}`,
  types: `types 2 ${VERSION}`,
  packageJson: `package.json 2 ${VERSION}`,
  readme: `package README ${VERSION}`,
  changelog: `package CHANGELOG ${VERSION}`,
  marker: `module marker ${VERSION}`,
  runtime: `records runtime 4 ${VERSION}`,
  // With fields on, message modules and the index name this revision too (2: records queries; 3:
  // check tables instead of check code; 4: a Long key field's default "0" under int64 string; 5:
  // index.js says its parameters' types in JSDoc),
  // so output without fields keeps its inputs.
  records: 'records 5',
  gitAttributes: `.gitattributes ${VERSION}`,
} as const;

/** The folder of the message modules. */
export const MESSAGES_DIR = 'messages';

/** A planned file whose renderer reads `view` (JSON) and nothing else. */
function planned<V>(path: string, renderer: string, view: V, render: (view: V) => string, input: string = hashOf(`${renderer}\0${path}\0${JSON.stringify(view)}`)): PlannedFile {
  // NUL keeps the parts apart: JSON escapes it, and neither a renderer id nor a path holds one.
  return { path, input, render: () => render(view), formatted: true };
}

/**
 * Every file the output folder must hold for `lockfile` with `settings` (its message types in
 * the scope only), sorted by path: `messages/<Stem>.ts` per message type (its stem as the naming
 * rule gives it, or as the lockfile records it), `index.ts` and
 * `types.ts` (target `ts`), or `messages/<Stem>.js` and `.d.ts`, `index.js`, `index.d.ts` and
 * `types.d.ts` (target `js+dts`); and `package.json`, `README.md`, `CHANGELOG.md` with a
 * `packageName`, else a `package.json` that marks the folder's files as ES modules (or CommonJS, `moduleFormat`);
 * and `.gitattributes`, which tells Git how to treat them. Nothing is rendered until a file's
 * `render` is called. With `earlier`, the modules of the types it knows unchanged keep their inputs
 * (the same as made anew: `test/run/earlier-plan.test.ts`).
 *
 * @throws EmitError for names that clash, invalid descriptors, a bad package name or template.
 */
export async function plan(lockfile: PlanInput, settings: PlanSettings, earlier?: EarlierPlan): Promise<PlannedFile[]> {
  const { package: packageName, fields = false } = settings;
  const int64Setting = int64Of(settings);
  if (packageName !== undefined) validatePackageName(packageName);
  if (settings.packageVersion !== undefined) assertPackageVersion(settings.packageVersion);
  const included = settings.scope === undefined ? undefined : inScope(settings.scope);
  const messages = lockfile.messages.filter((descriptor) => included === undefined || included(descriptor)).sort((a, b) => compareStrings(a.name, b.name));
  const typeNames = messages.map((descriptor) => descriptor.name);
  // Checked once, before the first file is rendered: a plan that renders nothing needs no check.
  let checked = false;
  const valid = () => {
    if (!checked) checkUniqueNumbers(messages);
    checked = true;
  };
  const names = planNames(typeNames, lockfile.fileStems);
  if (fields) checkRecords(messages.map(recordFacts), names);
  const templates = await loadTemplates(settings.templatesDir, settings.redact);
  const banner = bannerOf(templates.banner, settings);
  const sharedBanner = banner.shared;
  const target = targetOf(settings);
  const kinds = moduleKinds(target, settings.moduleFormat);
  // The js+dts target's `.js` files are ES modules that schema-sync writes itself: only `.ts`
  // sources are compiled by the project, as CommonJS when it says so.
  const commonjs = target === 'ts' && settings.moduleFormat === 'commonjs';

  // What every message module reads besides its own type: its renderer, the banner template and the package.
  const context = hashOf(JSON.stringify([RENDERERS.message, ...banner.view, ...(fields ? [RENDERERS.records] : [])]));
  const modules = new MessageModules({
    names,
    fields,
    int64: int64Setting,
    render: (message, name, kind, int64) => {
      valid();
      return messageFileText(message, name, banner.of(message), kind, { fields, ...(int64 === undefined ? {} : { int64 }) });
    },
  });
  const files: PlannedFile[] = [];
  // The types the earlier plan does not know unchanged (all of them without one).
  const changed: Descriptor[] = [];
  for (const descriptor of messages) {
    const paths = kinds.map((kind) => modulePath(`${MESSAGES_DIR}/${names.get(descriptor.name)!.fileStem}`, kind));
    const unchanged = earlier?.unchanged(descriptor.name) === true;
    if (!unchanged) changed.push(descriptor);
    // Every kind has the same input: the first path's stands for all.
    const kept = unchanged ? earlier!.inputOf(paths[0]!) : undefined;
    const input = kept ?? modules.input(moduleViewKey(descriptor, fields, int64Setting), descriptor.name, context).input;
    kinds.forEach((kind, i) => files.push(new MessageModuleFile(paths[i]!, input, modules, descriptor, kind)));
  }
  // The index shows each type's name, identifier, file and number (and with fields on whether it
  // has a primary key type), nothing else: a changed schemaHash re-renders its module only.
  let entries: IndexEntry[] | undefined;
  const indexEntries = () => (entries ??= messages.map((descriptor) => indexView(descriptor, fields, names.get(descriptor.name)!)));
  // The index keeps its input when each type the earlier plan does not know unchanged shows it as before.
  const indexKept = earlier !== undefined && changed.every((descriptor) => sameIndexView(earlier.descriptorOf(descriptor.name), descriptor, fields, names.get(descriptor.name)!));
  const whole = kinds.map((kind): PlannedFile => {
    const path = modulePath('index', kind);
    const input = (indexKept ? earlier!.inputOf(path) : undefined) ?? indexInput(path, indexEntries(), sharedBanner, kind, fields);
    return planned(path, RENDERERS.index, kind, (kind) => (valid(), indexFileText({ entries: indexEntries(), banner: sharedBanner, kind, fields })), input);
  });
  // The types' kind: whether it is TypeScript source (its head) and, with fields on, the runtime's specifier.
  const typesView = { banner: sharedBanner, fields, kind: target === 'ts' ? kinds[0]! : ('dts' as const) };
  whole.push(planned(typesPath(target, settings.moduleFormat), RENDERERS.types, typesView, (v) => typesFileText(v.banner, { fields: v.fields, kind: v.kind })));
  if (fields) {
    for (const kind of kinds) {
      const text = await recordsRuntimeText(kind);
      whole.push(planned(modulePath(RECORDS_RUNTIME, kind), RENDERERS.runtime, { banner: sharedBanner, text }, (v) => `${v.banner}\n${v.text}`));
    }
  }

  let extra: PlannedFile[];
  if (packageName === undefined) {
    // Without a package, package.json is the module marker: fixed bytes for each module format.
    // It is schema-sync's own fixed JSON, not code in the user's style: prettier leaves it alone.
    // Its view names the format only when it is CommonJS: an ES module folder keeps its input.
    const marker = commonjs ? { moduleFormat: 'commonjs' as const } : {};
    extra = [{ ...planned(MODULE_MARKER_PATH, RENDERERS.marker, marker, (v) => moduleMarkerFile(v.moduleFormat).text), formatted: false }];
  } else {
    const first = typeNames[0];
    const readme = { packageName, baseUrl: lockfile.source.baseUrl, messageCount: typeNames.length, example: first === undefined ? undefined : { name: first, identifier: names.get(first)!.identifier }, target, template: templates.packageReadme.source };
    const docs = [
      planned('README.md', RENDERERS.readme, readme, (v) => readmeText(templates.packageReadme, v)),
      planned('CHANGELOG.md', RENDERERS.changelog, { packageName, changelog: settings.changelog ?? [] }, changelogText),
    ];
    // package.json publishes the output's files: the whole-listing modules, the messages, the docs
    // (not .gitattributes, which is the repository's business).
    const packageJson = { packageName, packageVersion: settings.packageVersion ?? INITIAL_PACKAGE_VERSION, index: whole.slice(0, kinds.length).map((f) => f.path), files: [...whole.map((f) => f.path), MESSAGES_DIR, ...docs.map((f) => f.path)], ...(commonjs ? { type: 'commonjs' as const } : {}) };
    extra = [...docs, planned('package.json', RENDERERS.packageJson, packageJson, packageJsonText)];
  }
  // Schema-sync's own fixed text, which prettier cannot parse: never formatted.
  const gitAttributes: PlannedFile = { ...planned(GIT_ATTRIBUTES_PATH, RENDERERS.gitAttributes, {}, () => GIT_ATTRIBUTES_TEXT), formatted: false };
  return [...files, ...whole, ...extra, gitAttributes].sort((a, b) => compareStrings(a.path, b.path));
}

/**
 * The input of an index: the hash {@link planned} takes of its view, `[the entries' JSON, banner,
 * kind, fields]`.
 */
function indexInput(path: string, entries: readonly unknown[], banner: string, kind: ModuleKind, fields: boolean): string {
  return hashOf(`${RENDERERS.index}\0${path}\0${JSON.stringify([JSON.stringify(entries), banner, kind, fields ? RENDERERS.records : fields])}`);
}

/** Whether the index shows `before` (a type's descriptor in the earlier lockfile, if known) as it shows `after`. */
function sameIndexView(before: Descriptor | undefined, after: Descriptor, fields: boolean, name: PlannedName): boolean {
  return before !== undefined && JSON.stringify(indexView(before, fields, name)) === JSON.stringify(indexView(after, fields, name));
}

/** The key fields of a descriptor's primary key type (with fields on), as the index reads them. */
function primaryKeyFields(descriptor: Descriptor): FieldDescriptor[] {
  return keyFieldsOf(descriptor.fields ?? []).map(fieldView);
}

/**
 * What the index reads of a message type: its name, number, planned names and, with fields on,
 * its primary key fields (whether it has a primary key type, their order) and whether it has a
 * query field table.
 */
function indexView(descriptor: Descriptor, fields: boolean, name: PlannedName): IndexEntry {
  if (!fields) return { descriptor: { name: descriptor.name, mNum: descriptor.mNum, schemaHash: '', extra: {} }, name };
  return { descriptor: { name: descriptor.name, mNum: descriptor.mNum, schemaHash: '', extra: {}, fields: primaryKeyFields(descriptor) }, name, queryFields: hasQueryFields(descriptor, name) };
}

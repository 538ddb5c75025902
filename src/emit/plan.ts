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
import { hashOf, pieceHasher } from '../util/hash.js';
import { utf8Of } from '../util/utf8-of.js';
import type { ChangelogSection, Int64Type, ModuleFormat, OutputTarget } from '../model/lockfile.js';
import type { ListingSource } from '../model/source.js';
import { assertPackageVersion, INITIAL_PACKAGE_VERSION } from './package-version.js';
import { inScope, type Scope } from '../model/scope.js';
import { VERSION } from '../util/version.js';
import { checkUniqueNumbers } from './emit-input.js';
import { indexFilePieces, indexFileText, typesFileText } from './index-file.js';
import { commentText } from '../text/safe-text.js';
import { GIT_ATTRIBUTES_PATH, GIT_ATTRIBUTES_TEXT } from './git-attributes.js';
import { messageFileText } from './message-file.js';
import { fieldView, MessageModuleFile, MessageModules, moduleViewKey } from './message-modules.js';
import { MODULE_MARKER_PATH, moduleMarkerFile } from './module-marker.js';
import { planNames, type PlannedName } from './naming.js';
import { changelogText, packageJsonText, readmeText, validatePackageName } from './package-files.js';
import { int64Of } from './record-field-types.js';
import { checkRecords, keyFieldsOf, recordFacts, type RecordFacts } from './record-types.js';
import { moduleKinds, modulePath, targetOf, typesPath, type ModuleKind } from './targets.js';
import { loadTemplates } from './templates.js';

/** A file the output folder must hold. */
export interface PlannedFile {
  /** POSIX path relative to the output folder. */
  path: string;
  /** Hash of the renderer's version and of the value {@link PlannedFile.render} reads: equal inputs, equal bytes. */
  input: string;
  /** The file's text (before any formatting), from the value its input hashes. */
  render(): string;
  /**
   * The UTF-8 bytes of the text {@link PlannedFile.render} gives, made without one text of the
   * whole file, when its renderer can (the index of a large listing).
   */
  renderBytes?(): Buffer;
  /** Whether the file is code or docs in the user's style, which prettier formats when asked to (not the module marker or `.gitattributes`). */
  formatted: boolean;
  /** When set, prettier formats the rendered text, its config resolved from this folder (see `format-plan.ts`). */
  prettier?: string;
}

/** The lockfile a plan is made of. */
export interface PlanInput {
  /**
   * Its message types (those in the settings' scope are planned), iterated once (once more
   * without `descriptorOf`, to map them by name): a spilled lockfile gives them from its entries,
   * not held.
   */
  messages: Iterable<Descriptor>;
  source: ListingSource;
  /** The file stems it records (`Lockfile.fileStems`). */
  fileStems?: ReadonlyMap<string, string> | undefined;
  /**
   * The descriptor of the message type of this name, equal to the one in `messages`, when a
   * module renders. When given, the plan keeps none of `messages` (a run lets a large listing's
   * descriptors go once the plan is made, and gives each again from its lockfile entry).
   */
  descriptorOf?: ((name: string) => Descriptor) | undefined;
}

/** What decides the output besides the lockfile's descriptors and source. */
export interface PlanSettings {
  /**
   * A folder whose `banner.txt` / `package-readme.md` override the built-in templates.
   * @default the `templates/` folder of schema-sync
   */
  templatesDir?: string | undefined;
  /** When set, the folder is the npm package of this name (`package.json`, `README.md`, `CHANGELOG.md`). */
  packageName?: string | undefined;
  /** The package's version, `x.y.z` (with `packageName` only). @default "1.0.0" */
  packageVersion?: string | undefined;
  /** The sections of the package's CHANGELOG.md, newest first (with `packageName` only). @default [] */
  changelog?: readonly ChangelogSection[] | undefined;
  /** `ts`, or `js+dts`. @default "js+dts" with a `packageName`, else "ts" */
  target?: OutputTarget | undefined;
  /** Whether each message type's record interfaces are generated. @default false */
  fields?: boolean | undefined;
  /** How the record types type `Long` and `ULong` fields: `number`, `bigint` or `string`. @default "number" */
  int64?: Int64Type | undefined;
  /**
   * What the project makes of the generated TypeScript (target `ts`): `.ts` ES modules, `.ts`
   * compiled to CommonJS (see `module-marker.ts`), or `.mts` ES modules. @default "esm"
   */
  moduleFormat?: ModuleFormat | undefined;
  /** Which message types are generated. @default all */
  scope?: Scope | undefined;
}

/**
 * The renderers, each with the version of its code: schema-sync's version and the renderer's
 * id. A file's input starts with its renderer's, so a new schema-sync renders every file anew.
 * A renderer whose bytes change within a version names its revision (`package.json 2`: it
 * exports `./messages/*.js`), so a folder made before is rendered anew too.
 */
const RENDERERS = {
  message: `message-module ${VERSION}`,
  index: `index ${VERSION}`,
  types: `types ${VERSION}`,
  packageJson: `package.json 2 ${VERSION}`,
  readme: `package README ${VERSION}`,
  changelog: `package CHANGELOG ${VERSION}`,
  marker: `module marker ${VERSION}`,
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
 * `render` is called.
 *
 * @throws EmitError for names that clash, invalid descriptors, a bad package name or template.
 */
export async function plan(lockfile: PlanInput, settings: PlanSettings): Promise<PlannedFile[]> {
  const { packageName, fields = false } = settings;
  const int64Setting = int64Of(settings);
  if (packageName !== undefined) validatePackageName(packageName);
  if (settings.packageVersion !== undefined) assertPackageVersion(settings.packageVersion);
  // What the names, the modules' inputs and the index read of each type in the scope, the index's
  // kept as columns: no closure of the plan keeps the descriptors themselves (see
  // PlanInput.descriptorOf), and each is let go once read.
  const rows = inScopeRows(lockfile.messages, settings.scope, { fields, int64: int64Setting });
  const typeNames = rows.map((row) => row.name);
  const numbers = rows.map((row) => row.mNum);
  const keyFields = fields ? rows.map((row) => row.keyFields) : undefined;
  // Checked once, before the first file is rendered: a plan that renders nothing needs no check.
  let checked = false;
  const valid = () => {
    if (!checked) checkUniqueNumbers(typeNames.map((name, i) => ({ name, mNum: numbers[i]! })));
    checked = true;
  };
  const names = planNames(typeNames, lockfile.fileStems);
  if (fields) checkRecords(rows.map((row) => row.record!), names);
  const descriptorOf = lockfile.descriptorOf ?? byName(lockfile.messages);
  const templates = await loadTemplates(settings.templatesDir);
  const bannerValues = { packageName: packageName === undefined ? undefined : commentText(packageName) };
  const sharedBanner = templates.banner.render(bannerValues);
  const target = targetOf(settings);
  const kinds = moduleKinds(target, settings.moduleFormat);
  // The js+dts target's `.js` files are ES modules that schema-sync writes itself: only `.ts`
  // sources are compiled by the project, as CommonJS when it says so.
  const commonjs = target === 'ts' && settings.moduleFormat === 'commonjs';

  // What every message module reads besides its own type: its renderer, the banner template and the package.
  const context = hashOf(JSON.stringify([RENDERERS.message, templates.banner.source, bannerValues]));
  const modules = new MessageModules({
    names,
    descriptorOf,
    fields,
    int64: int64Setting,
    render: (message, name, kind, int64) => {
      valid();
      const banner = templates.banner.render({ ...bannerValues, schemaHash: commentText(message.schemaHash), messageName: commentText(message.name) });
      return messageFileText(message, name, banner, kind, { fields, ...(int64 === undefined ? {} : { int64 }) });
    },
  });
  const files: PlannedFile[] = [];
  for (const { name, viewKey } of rows) {
    const { input, name: planned } = modules.input(viewKey, name, context);
    for (const kind of kinds) files.push(new MessageModuleFile(modulePath(`${MESSAGES_DIR}/${planned.fileStem}`, kind), input, modules, name, kind));
  }
  // The index shows each type's name, identifier, file and number (and with fields on whether it
  // has a primary key type), nothing else: a changed schemaHash re-renders its module only.
  // Made again when an index renders rather than kept: a few hundred bytes a type.
  const indexEntries = () => typeNames.map((name, i) => indexView({ name, mNum: numbers[i]!, keyFields: keyFields?.[i] }, names.get(name)!));
  const inputs = indexInputs(indexEntries(), kinds, sharedBanner, fields);
  const indexInputOf = (kind: ModuleKind) => (valid(), { entries: indexEntries(), banner: sharedBanner, kind, fields });
  const whole = kinds.map((kind, i): PlannedFile => ({
    ...planned(modulePath('index', kind), RENDERERS.index, kind, (kind) => indexFileText(indexInputOf(kind)), inputs[i]),
    renderBytes: () => utf8Of(indexFilePieces(indexInputOf(kind))),
  }));
  whole.push(planned(typesPath(target, settings.moduleFormat), RENDERERS.types, { banner: sharedBanner, fields }, (v) => typesFileText(v.banner, { fields: v.fields })));

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
 * The input of each kind of index. Apart from {@link plan}: a value a closure there used would be
 * held in its context, which every module keeps, for the whole run (the entries are a few
 * hundred bytes a type).
 */
function indexInputs(entries: readonly unknown[], kinds: readonly ModuleKind[], banner: string, fields: boolean): string[] {
  return kinds.map((kind) => indexInput(modulePath('index', kind), entries, banner, kind, fields));
}

/**
 * The input of an index: the hash {@link planned} takes of its view, `[the entries' JSON, banner,
 * kind, fields]`, taken a piece at a time. Whole, the entries' JSON and that JSON again as a
 * string inside the view's would be tens of MB each for a large listing.
 */
function indexInput(path: string, entries: readonly unknown[], banner: string, kind: ModuleKind, fields: boolean): string {
  // Escaped as inside a JSON string, a piece at a time: whole entries, so no pair of surrogates is cut.
  const inString = (text: string) => JSON.stringify(text).slice(1, -1);
  const hasher = pieceHasher();
  hasher.update(`${RENDERERS.index}\0${path}\0["[`);
  entries.forEach((entry, i) => hasher.update(inString(`${i === 0 ? '' : ','}${JSON.stringify(entry)}`)));
  hasher.update(`]",${JSON.stringify(banner)},${JSON.stringify(kind)},${JSON.stringify(fields)}]`);
  return hasher.digest();
}


/** The key fields of a descriptor's primary key type (with fields on), as the index reads them. */
function primaryKeyFields(descriptor: Descriptor): FieldDescriptor[] {
  return keyFieldsOf(descriptor.fields ?? []).map(fieldView);
}

/** The descriptors by name (for a plan whose input does not give them again). */
function byName(descriptors: Iterable<Descriptor>): (name: string) => Descriptor {
  const map = new Map<string, Descriptor>();
  for (const descriptor of descriptors) map.set(descriptor.name, descriptor);
  return (name) => map.get(name)!;
}

/**
 * What a plan reads of each message type in `scope`, sorted by name: its name, number, the key
 * of its module's view and, with `fields`, its primary key fields and what the record checks
 * read. With `descriptorOf`, the plan reads each descriptor here only, once (a module reads it
 * again when it renders).
 */
function inScopeRows(
  messages: Iterable<Descriptor>,
  scope: Scope | undefined,
  settings: { fields: boolean; int64: Int64Type },
): Array<{ name: string; mNum: number; viewKey: string; keyFields: FieldDescriptor[] | undefined; record: RecordFacts | undefined }> {
  const { fields, int64 } = settings;
  const included = scope === undefined ? undefined : inScope(scope);
  const rows = [];
  for (const descriptor of messages) {
    if (included !== undefined && !included(descriptor)) continue;
    rows.push({
      name: descriptor.name,
      mNum: descriptor.mNum,
      viewKey: moduleViewKey(descriptor, fields, int64),
      keyFields: fields ? primaryKeyFields(descriptor) : undefined,
      record: fields ? recordFacts(descriptor) : undefined,
    });
  }
  return rows.sort((a, b) => compareStrings(a.name, b.name));
}

/**
 * What the index reads of a message type: its name, number, planned names and, with fields on,
 * its primary key fields (whether it has a primary key type).
 */
function indexView(type: { name: string; mNum: number; keyFields: FieldDescriptor[] | undefined }, name: PlannedName): { descriptor: Descriptor; name: PlannedName } {
  return { descriptor: { name: type.name, mNum: type.mNum, schemaHash: '', extra: {}, ...(type.keyFields === undefined ? {} : { fields: type.keyFields }) }, name };
}

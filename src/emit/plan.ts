/**
 * The one plan of the output: every file the output folder must hold, each with the hash of
 * exactly the value its renderer reads and a closure that renders it from that value. A file's
 * freshness (its input against the manifest's) and its text therefore cannot disagree, and no
 * scheme constant needs raising by hand: what a renderer reads is its input, and the renderer's
 * own version (schema-sync's version and the renderer's id) is part of it.
 */
import type { Descriptor } from '../model/descriptor.js';
import { compareStrings, makeDescriptor, sortDescriptors } from '../model/descriptor.js';
import type { FieldDescriptor } from '../model/field.js';
import { hashOf } from '../util/hash.js';
import type { ChangelogSection, Int64Type, ModuleFormat, OutputTarget } from '../model/lockfile.js';
import type { ListingSource } from '../model/source.js';
import { assertPackageVersion, INITIAL_PACKAGE_VERSION } from './package-version.js';
import { scoped, type Scope } from '../model/scope.js';
import { VERSION } from '../util/version.js';
import { checkUniqueNumbers } from './emit-input.js';
import { indexFileText, typesFileText } from './index-file.js';
import { commentText } from '../text/safe-text.js';
import { GIT_ATTRIBUTES_PATH, GIT_ATTRIBUTES_TEXT } from './git-attributes.js';
import { messageFileText } from './message-file.js';
import { MODULE_MARKER_PATH, moduleMarkerFile } from './module-marker.js';
import { planNames, type PlannedName } from './naming.js';
import { changelogText, packageJsonText, readmeText, validatePackageName } from './package-files.js';
import { hasInt64Field, int64Of } from './record-field-types.js';
import { checkRecords } from './record-types.js';
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
  /** Whether the file is code or docs in the user's style, which prettier formats when asked to (not the module marker or `.gitattributes`). */
  formatted: boolean;
  /** When set, prettier formats the rendered text, its config resolved from this folder (see `format-plan.ts`). */
  prettier?: string;
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
 */
const RENDERERS = {
  message: `message-module ${VERSION}`,
  index: `index ${VERSION}`,
  types: `types ${VERSION}`,
  packageJson: `package.json ${VERSION}`,
  readme: `package README ${VERSION}`,
  changelog: `package CHANGELOG ${VERSION}`,
  marker: `module marker ${VERSION}`,
  gitAttributes: `.gitattributes ${VERSION}`,
} as const;

/** The folder of the message modules. */
export const MESSAGES_DIR = 'messages';

/** A planned file whose renderer reads `view` (JSON) and nothing else. */
function planned<V>(path: string, renderer: string, view: V, render: (view: V) => string, viewJson: string = JSON.stringify(view)): PlannedFile {
  // NUL keeps the parts apart: JSON escapes it, and neither a renderer id nor a path holds one.
  return { path, input: hashOf(`${renderer}\0${path}\0${viewJson}`), render: () => render(view), formatted: true };
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
export async function plan(lockfile: { messages: readonly Descriptor[]; source: ListingSource; fileStems?: ReadonlyMap<string, string> | undefined }, settings: PlanSettings): Promise<PlannedFile[]> {
  const { packageName, fields = false } = settings;
  const int64Setting = int64Of(settings);
  if (packageName !== undefined) validatePackageName(packageName);
  if (settings.packageVersion !== undefined) assertPackageVersion(settings.packageVersion);
  const descriptors = sortDescriptors(settings.scope === undefined ? lockfile.messages : scoped(lockfile.messages, settings.scope));
  // Checked once, before the first file is rendered: a plan that renders nothing needs no check.
  let checked = false;
  const valid = () => {
    if (!checked) checkUniqueNumbers(descriptors);
    checked = true;
  };
  const names = planNames(descriptors.map((d) => d.name), lockfile.fileStems);
  if (fields) checkRecords(descriptors, names);
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
  const bannerOf = (message: Descriptor) => templates.banner.render({ ...bannerValues, schemaHash: commentText(message.schemaHash), messageName: commentText(message.name) });
  const modules: PlannedFile[] = [];
  for (const descriptor of descriptors) {
    const name = names.get(descriptor.name)!;
    const message = messageView(descriptor, fields);
    // The int64 setting only where the record types have a 64-bit field, the only place it shows:
    // changing it re-renders those modules alone.
    const int64 = fields && hasInt64Field(descriptor) ? int64Setting : undefined;
    // One input for every kind of the module: the kind is its path's, which the manifest keys by.
    const input = hashOf(`${context}\0${JSON.stringify(int64 === undefined ? [message, name, fields] : [message, name, fields, int64])}`);
    for (const kind of kinds) {
      modules.push({ path: modulePath(`${MESSAGES_DIR}/${name.fileStem}`, kind), input, render: () => (valid(), messageFileText(message, name, bannerOf(message), kind, { fields, ...(int64 === undefined ? {} : { int64 }) })), formatted: true });
    }
  }
  // The index shows each type's name, identifier, file and number (and with fields on whether it
  // has a primary key type), nothing else: a changed schemaHash re-renders its module only.
  const entries = descriptors.map((descriptor) => indexView(descriptor, names.get(descriptor.name)!, fields));
  const whole = indexJsons(entries, kinds, sharedBanner, fields).map(([kind, json]) =>
    planned(
      modulePath('index', kind),
      RENDERERS.index,
      { entries, banner: sharedBanner, kind, fields },
      (v) => (valid(), indexFileText({ entries: v.entries, banner: v.banner, kind: v.kind, fields: v.fields })),
      json,
    ),
  );
  whole.push(planned(typesPath(target, settings.moduleFormat), RENDERERS.types, { banner: sharedBanner, fields }, (v) => typesFileText(v.banner, { fields: v.fields })));

  let extra: PlannedFile[];
  if (packageName === undefined) {
    // Without a package, package.json is the module marker: fixed bytes for each module format.
    // It is schema-sync's own fixed JSON, not code in the user's style: prettier leaves it alone.
    // Its view names the format only when it is CommonJS: an ES module folder keeps its input.
    const marker = commonjs ? { moduleFormat: 'commonjs' as const } : {};
    extra = [{ ...planned(MODULE_MARKER_PATH, RENDERERS.marker, marker, (v) => moduleMarkerFile(v.moduleFormat).text), formatted: false }];
  } else {
    const first = entries[0]?.descriptor;
    const readme = { packageName, baseUrl: lockfile.source.baseUrl, messageCount: entries.length, example: first === undefined ? undefined : { name: first.name, identifier: entries[0]!.name.identifier }, target, template: templates.packageReadme.source };
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
  return [...modules, ...whole, ...extra, gitAttributes].sort((a, b) => compareStrings(a.path, b.path));
}

/**
 * The JSON of what each kind of index reads. Apart from {@link plan}: a value a closure there
 * used would be held in its context, which every module's render closure keeps, for the whole
 * run (the entries' JSON is a few hundred bytes a type).
 */
function indexJsons(entries: readonly unknown[], kinds: readonly ModuleKind[], banner: string, fields: boolean): Array<[ModuleKind, string]> {
  const entriesJson = JSON.stringify(entries);
  return kinds.map((kind) => [kind, JSON.stringify([entriesJson, banner, kind, fields])]);
}

/**
 * What a message module reads of a descriptor: its known fields, its description (the one
 * unknown key it shows), and with fields on its field descriptors without their unknown keys.
 * Other unknown keys are not shown, so they are not part of its input either: their key order,
 * which a lockfile may hold otherwise than the service sent it, re-renders nothing.
 */
function messageView(descriptor: Descriptor, fields: boolean): Descriptor {
  const desc = descriptor.extra['desc'];
  // Built field by field (makeDescriptor), not by object rest and spread: V8 gives each object
  // made that way a hidden class of its own, and a plan holds one view a message type.
  const view = makeDescriptor(descriptor, typeof desc === 'string' ? { desc } : {});
  if (fields && descriptor.fields !== undefined) view.fields = descriptor.fields.map(fieldView);
  return view;
}

function fieldView(field: FieldDescriptor): FieldDescriptor {
  const { extra: _unknown, ...known } = field;
  return { ...known, extra: {} };
}

/**
 * What the index reads of a message type: its name, number, planned names and, with fields on,
 * its primary key fields (whether it has a primary key type).
 */
function indexView(descriptor: Descriptor, name: PlannedName, fields: boolean): { descriptor: Descriptor; name: PlannedName } {
  const keyFields = (descriptor.fields ?? []).filter((field) => field.isPkey === true && field.inRepeater === undefined).map(fieldView);
  return { descriptor: { name: descriptor.name, mNum: descriptor.mNum, schemaHash: '', extra: {}, ...(fields ? { fields: keyFields } : {}) }, name };
}

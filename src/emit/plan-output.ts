import { canonicalJson } from '../util/canonical-json.js';
import { compareStrings, sortDescriptors } from '../model/descriptor.js';
import { isScoped, type Scope } from '../model/scope.js';
import { hashOf, hashOfParts } from '../util/hash.js';
import { INITIAL_PACKAGE_VERSION } from './package-version.js';
import { VERSION } from '../util/version.js';
import type { EmitOptions } from './emit-files.js';
import { planNames } from './naming.js';
import { checkRecords, hasPrimaryKey } from './record-types.js';
import { PACKAGE_FILES, validatePackageName, type PackageFile } from './package-files.js';
import { moduleKinds, modulePath, targetOf, typesPath } from './targets.js';
import { loadTemplates } from './templates.js';

/** A file the output will hold, and a fingerprint of everything its text depends on. */
export interface PlannedFile {
  /** POSIX path relative to the output folder. */
  path: string;
  /** Hash of the inputs that determine the file's text; equal inputs give equal bytes. */
  input: string;
  /** The message type a message module is for; absent for index, types and package files. */
  message?: string;
}

/** Options of {@link planOutput}: the emit options plus what formatting adds. */
export interface PlanOptions extends EmitOptions {
  /** Fingerprint of the code formatting (e.g. prettier's version and resolved config); absent when unformatted. */
  formatKey?: string;
  /** {@link outputSettingsKey} of these options, when the caller has it already. */
  settingsKey?: string;
}

/**
 * Lists the files {@link emitFiles} would produce, with input fingerprints, without loading
 * ts-morph: a run compares them with the manifest to emit only what changed, and `check` to
 * verify a folder without emitting at all.
 */
export async function planOutput(options: PlanOptions): Promise<PlannedFile[]> {
  const settings = options.settingsKey ?? (await outputSettingsKey(options));
  const descriptors = sortDescriptors(options.messages);
  const plan = planNames(descriptors.map((d) => d.name));
  const fields = options.fields === true;
  if (fields) checkRecords(descriptors, plan);
  // Message modules and the index depend on the settings, never on the service's URL.
  const context = hashOfParts([settings]);
  const kinds = moduleKinds(targetOf(options));
  const files: PlannedFile[] = [];
  const whole = [context];
  for (const descriptor of descriptors) {
    const planned = plan.get(descriptor.name)!;
    // Plain JSON: descriptors from the fetch stage and from the lockfile have the same key order
    // (known fields fixed, unknown ones sorted at every depth). NUL separators keep the parts
    // apart (JSON escapes NUL; identifiers and file stems never hold one).
    const input = hashOf(`${context}\0${JSON.stringify(descriptor)}\0${planned.identifier}\0${planned.fileStem}`);
    // The whole-listing files show each type's name, identifier, file and number, nothing else:
    // a changed schemaHash re-renders its module, not a 10,000-line index.
    // With fields on, the index also shows whether the type has a primary key type.
    whole.push(JSON.stringify([descriptor.name, planned.identifier, planned.fileStem, descriptor.mNum, ...(fields ? [hasPrimaryKey(descriptor)] : [])]));
    for (const kind of kinds) files.push({ path: modulePath(`messages/${planned.fileStem}`, kind), input, message: descriptor.name });
  }
  // Index and types depend on every message type's name and number.
  const all = hashOf(whole.join('\0'));
  for (const path of [...kinds.map((kind) => modulePath('index', kind)), typesPath(targetOf(options))]) files.push({ path, input: all });
  const { packageName } = options;
  // Without a package, package.json is the module marker: fixed bytes, rendered from the settings.
  if (packageName === undefined) {
    files.push({ path: 'package.json', input: context });
  } else {
    // The settings key has the package's name and target; its version and changelog, which
    // change with every bump, go into the files that show them only.
    const inputs: Record<PackageFile, string> = {
      'package.json': hashOfParts([context, options.packageVersion ?? INITIAL_PACKAGE_VERSION]),
      // The README shows the (normalised) source, the number of types and the first one.
      'README.md': hashOfParts([all, options.source.baseUrl ?? null]),
      'CHANGELOG.md': hashOfParts([context, JSON.stringify(options.changelog ?? [])]),
    };
    for (const path of PACKAGE_FILES) files.push({ path, input: inputs[path] });
  }
  return files.sort((a, b) => compareStrings(a.path, b.path));
}

/**
 * How input fingerprints are computed; part of every settings key. Raise it when that changes,
 * so that every folder is planned anew, even within one version.
 */
const PLAN_SCHEME = '9';

/**
 * A key of what decides every file of the output besides the lockfile's descriptors:
 * schema-sync's version, the templates, the package name, the target, the formatting, whether
 * record types are generated, and which message types are in scope (the caller plans only those,
 * so a key without the scope would let a cache serve another set). Same lockfile and same key,
 * same files. (A package's version and changelog are inputs of the files that show them; see
 * {@link planOutput}.)
 */
export async function outputSettingsKey(options: Omit<PlanOptions, 'messages' | 'source' | 'settingsKey' | 'packageVersion' | 'changelog'> & { scope?: Scope }): Promise<string> {
  if (options.packageName !== undefined) validatePackageName(options.packageName);
  const templates = await loadTemplates(options.templatesDir);
  // The scope only when set: the key of every output without one stays what it was.
  const scope = options.scope !== undefined && isScoped(options.scope) ? [canonicalJson(options.scope)] : [];
  return hashOfParts(['schema-sync output', VERSION, PLAN_SCHEME, templates.banner.source, templates.packageReadme.source, options.packageName ?? null, targetOf(options), options.formatKey ?? null, options.fields === true ? 'fields' : null, ...scope]);
}

/**
 * Which files each module of the output is written as, per target: one `.ts` file, or a `.js`
 * file with its `.d.ts`. Planning and rendering both list files from here, so they agree.
 */
import { ConfigError } from '../model/errors.js';
import { defaultTarget, OUTPUT_TARGETS, type ModuleFormat, type OutputTarget } from '../model/lockfile.js';
import { msg, own } from '../model/message.js';

/** What a file of a module holds: TypeScript (`.ts`, or `.mts`: an ES module by its extension), JavaScript, or declarations. */
export type ModuleKind = 'ts' | 'mts' | 'js' | 'dts';

const EXTENSIONS: Readonly<Record<ModuleKind, string>> = { ts: '.ts', mts: '.mts', js: '.js', dts: '.d.ts' };

/** The kinds of file a module is written as under `target` (and, for `ts`, the module format). */
export function moduleKinds(target: OutputTarget, format?: ModuleFormat): readonly ModuleKind[] {
  return target === 'ts' ? [format === 'mts' ? 'mts' : 'ts'] : ['js', 'dts'];
}

/** Whether a kind is TypeScript source (values and their literal types, `as const`). */
export function isTypeScript(kind: ModuleKind): boolean {
  return kind === 'ts' || kind === 'mts';
}

/** The path of a module's file of one kind, e.g. `messages/Order` and `dts` → `messages/Order.d.ts`. */
export function modulePath(stem: string, kind: ModuleKind): string {
  return stem + EXTENSIONS[kind];
}

/**
 * How a module of `kind` imports another of the output, e.g. `messages/Order` from the folder's
 * root → `./messages/Order.js`: ES module specifiers name the `.js` file, which TypeScript
 * resolves to the `.ts` or `.d.ts` of either target; an `.mts` module names the `.mjs` file.
 */
export function moduleSpecifier(stem: string, from: 'root' | 'messages', kind: ModuleKind): string {
  return `${from === 'root' ? './' : '../'}${stem}${kind === 'mts' ? '.mjs' : '.js'}`;
}

/** `types.ts` (`types.mts`), or `types.d.ts`: the shared types module declares types only, so it has no `.js`. */
export function typesPath(target: OutputTarget, format?: ModuleFormat): string {
  return target === 'ts' ? modulePath('types', moduleKinds(target, format)[0]!) : 'types.d.ts';
}

/**
 * The target of emit options: as given, else the default for a package or a plain folder.
 *
 * @throws ConfigError for a target that is none of {@link OUTPUT_TARGETS} (from JavaScript callers).
 */
export function targetOf(options: { target?: OutputTarget | undefined; package?: string | undefined }): OutputTarget {
  const { target } = options;
  if (target === undefined) return defaultTarget(options.package);
  if (OUTPUT_TARGETS.includes(target)) return target;
  throw new ConfigError(msg`The target ${JSON.stringify(target)} is not one schema-sync writes.`, {
    hint: msg`Use one of ${own(OUTPUT_TARGETS.join(', '))}.`,
  });
}

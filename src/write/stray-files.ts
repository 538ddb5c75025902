import { compareStrings } from '../model/descriptor.js';
import { hashOf } from '../util/hash.js';
import type { ChangeSet } from './change-set.js';
import type { FolderView } from './folder-view.js';
import type { Manifest } from './manifest.js';
import { SymbolicLinkFound } from './symbolic-link-found.js';

/**
 * A file schema-sync generated that neither the plan nor the manifest names (a `git checkout`
 * restored the lockfile and manifest of before a pull, and left that pull's new files behind,
 * untracked): stale output, told by its banner. Deleted by a writing run while it still holds
 * the bytes it had when judged (`sha`), drift for `check`.
 */
export interface StaleOutput {
  /** Posix path relative to the output folder. */
  path: string;
  /** Hash of its bytes when it was judged stale. */
  sha: string;
}

/** The files of the output folder that are neither the output nor in the manifest. */
export interface StrayFiles {
  /** Those that carry schema-sync's banner, sorted by path. */
  stale: StaleOutput[];
  /** Any other: the user's, left alone (sorted). */
  user: string[];
}

/** No stray file. */
export const NO_STRAYS: StrayFiles = Object.freeze({ stale: [], user: [] }) as StrayFiles;

/**
 * The stray files of the folder seen through `view`, whose change set is `changes` (it names the
 * planned files) and whose manifest as found is `found`. A folder whose change set is in sync and
 * that holds no more files than the plan (and `own`) is known to have none without reading the
 * manifest. Only a stray's own bytes are read, to tell schema-sync's banner (`bannerLines`, asked
 * for only then: any of them as a file's first line) from a file of the user's.
 */
export async function strayFiles(input: {
  view: FolderView;
  changes: ChangeSet;
  found: (() => Manifest) | undefined;
  /** schema-sync's files in the folder besides the output: the manifest, a lockfile kept there. */
  own: readonly string[];
  bannerLines: () => Promise<readonly string[]>;
}): Promise<StrayFiles> {
  const { view, changes } = input;
  const own = new Set(input.own);
  const files = view.files().filter((path) => !own.has(path));
  // Nothing to change: every planned file is there, so no more files than planned means no other one.
  const settled = changes.write.length === 0 && changes.delete.length === 0 && changes.edited.length === 0 && changes.linked.length === 0;
  if (settled && files.length <= changes.unchanged) return NO_STRAYS;
  const planned = changes.manifest;
  const found = input.found?.();
  const known = (path: string) => planned.has(path) || found?.has(path) === true;
  // What a build makes of a generated file beside it (tsc's `Order.js` of `Order.ts`, a source
  // map) is the project's, and so is a hidden file (a `.prettierrc` for the output, a
  // `.gitignore`): no business of schema-sync's, neither stale nor warned about. The stems are
  // gathered only when some file is neither planned nor listed (a pull that changes a few files has none).
  const others = files.filter((path) => !known(path) && !isHidden(path));
  if (others.length === 0) return NO_STRAYS;
  const stems = new Set([...planned.keys(), ...(found?.keys() ?? [])].map(stemOf));
  const strays = others.filter((path) => !stems.has(stemOf(path))).sort(compareStrings);
  if (strays.length === 0) return NO_STRAYS;
  const lines = new Set((await input.bannerLines()).filter((line) => line.trim() !== ''));
  const stale: StaleOutput[] = [];
  const user: string[] = [];
  for (const path of strays) {
    const bytes = await readOrLink(view, path);
    if (bytes !== undefined && carriesBanner(bytes, lines)) stale.push({ path, sha: hashOf(bytes) });
    else user.push(path);
  }
  return { stale, user };
}

/** The bytes of `path`; undefined for a symbolic link (never read through) or a file gone meanwhile. */
async function readOrLink(view: FolderView, path: string): Promise<Buffer | undefined> {
  try {
    return await view.read(path);
  } catch (error) {
    if (error instanceof SymbolicLinkFound) return undefined;
    throw error;
  }
}

/** Whether a file's name starts with a dot. */
function isHidden(path: string): boolean {
  return path[path.lastIndexOf('/') + 1] === '.';
}

/** A path without the extensions of its file name: `messages/Order` of `messages/Order.d.ts`. */
function stemOf(path: string): string {
  const dot = path.indexOf('.', path.lastIndexOf('/') + 1);
  return dot < 0 ? path : path.slice(0, dot);
}

/** Whether a file's first line is one of `bannerLines` (schema-sync's banner, as its templates give it). */
export function carriesBanner(bytes: Buffer, bannerLines: ReadonlySet<string>): boolean {
  return bannerLines.has(firstLine(bytes));
}

/**
 * Whether schema-sync writes a file at `path` with its banner as the first line: every module it
 * generates (`.ts`, `.d.ts`, `.js`, `.mts`, …). Its other files are told by their names alone
 * ({@link OWN_PLAIN_FILES}).
 */
export function writtenWithBanner(path: string): boolean {
  return /\.[cm]?[jt]s$/.test(path);
}

/** The files schema-sync writes without the modules' banner, at the top of the output folder: the package's files, the module marker, `.gitattributes`. */
export const OWN_PLAIN_FILES: ReadonlySet<string> = new Set(['package.json', 'README.md', 'CHANGELOG.md', '.gitattributes']);

/** A file's first line, without a byte order mark or a CR (a checkout with CRLF line endings). */
function firstLine(bytes: Buffer): string {
  const head = bytes.subarray(0, 1024).toString('utf8').replace(/^\uFEFF/, '');
  const end = head.indexOf('\n');
  return (end < 0 ? head : head.slice(0, end)).replace(/\r$/, '');
}

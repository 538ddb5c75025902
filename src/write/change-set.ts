import { compareStrings } from '../model/descriptor.js';
import { WriteError } from '../model/errors.js';
import { hashOf } from '../util/hash.js';
import type { FolderView } from './folder-view.js';
import { SymbolicLinkFound } from './symbolic-link-found.js';
import type { Manifest } from './manifest.js';
import { isSafeRelativePath } from './safe-path.js';
import { carriesBanner, OWN_PLAIN_FILES, writtenWithBanner } from './stray-files.js';
import { msg } from '../model/message.js';

/** A file the output folder must hold: its path and the fingerprint of what its text is made from. */
export interface ExpectedFile {
  path: string;
  input: string;
}

/** A file to place in the output folder. */
export interface OutputFile {
  /** Posix path relative to the output folder. */
  path: string;
  text: string;
}

/**
 * A file whose bytes must change, and whether the folder has one at its path now. Its bytes are
 * not held: a run that applies the change set has them prepared in its transaction folder as
 * they are known (`stage`, see staging.ts).
 */
export interface FileWrite {
  /** Posix path relative to the output folder. */
  path: string;
  found: boolean;
}

/**
 * What it takes to make the folder hold the plan: `check` reports it as drift, `pull` and
 * `generate` apply it (with the lockfile) in one transaction.
 */
export interface ChangeSet {
  /** Planned files whose bytes must change (missing, or holding other bytes), sorted by path. */
  write: FileWrite[];
  /** schema-sync's files the plan no longer holds, with the bytes it wrote: to delete. */
  delete: string[];
  /** How many planned files already hold their bytes. */
  unchanged: number;
  /** schema-sync's files the plan no longer holds, edited by hand since: left in place, no longer managed. */
  edited: string[];
  /**
   * Files the manifest names that the plan no longer holds, but that schema-sync did not write: a
   * module that does not begin with its banner (one it generates always does), or any other file
   * but those it writes without one (`OWN_PLAIN_FILES`). Not schema-sync's, whatever hash the
   * manifest records (a manifest a repository carries may name any file): left in place, no
   * longer in the manifest.
   */
  unmarked: string[];
  /** Planned paths the folder holds with other bytes, that schema-sync never wrote (the manifest does not name them). */
  foreign: string[];
  /**
   * Symbolic links where the plan or the manifest has a file, or a folder on the way to one
   * (paths relative to the folder, sorted): never read through. `check` reports them; a writing
   * run refuses to run over them.
   */
  linked: string[];
  /** The manifest of the folder once the change set is applied. */
  manifest: Manifest;
}

/**
 * The change set of a folder known to hold exactly the `count` files its manifest records, as it
 * records them: nothing to do. The manifest's `entries` are only parsed when asked for, so a run
 * that finds its folder as it left it never reads them.
 */
export function noChanges(entries: () => Manifest, count: number): ChangeSet {
  return {
    write: [],
    delete: [],
    unchanged: count,
    edited: [],
    unmarked: [],
    foreign: [],
    linked: [],
    get manifest() {
      return entries();
    },
  };
}

/**
 * The change set that makes the folder seen through `view`, whose manifest is `manifest`, hold
 * the `planned` files: a file is fresh when the manifest records its input and `holds` confirms
 * it still has the bytes recorded; every other one is rendered (`render`, all at once) and
 * compared with the folder, and each one to write goes to `stage` as UTF-8. A folder known to be
 * empty is not read, and nothing is read through a
 * symbolic link inside it (see {@link ChangeSet.linked}).
 *
 * @throws WriteError for a planned path that is not a plain path inside the folder.
 */
export async function changeSet<F extends ExpectedFile>(input: {
  planned: readonly F[];
  manifest: Manifest;
  view: FolderView;
  /** Whether the file at `path` holds bytes with hash `sha` (at once when that is known without reading it). */
  holds: (path: string, sha: string) => boolean | Promise<boolean>;
  /** The texts of the files that are not known fresh. */
  render: (stale: F[]) => Promise<OutputFile[]>;
  /** Takes the bytes of each file to write, in the order of their paths (a run that only reports drift has none). */
  stage?: (path: string, bytes: Buffer) => Promise<void>;
  /**
   * The first lines of schema-sync's banner (see stray-files.ts): a module the manifest names is
   * deleted only when it begins with one of them, any other file only when it is one schema-sync
   * writes without a banner (`OWN_PLAIN_FILES`). Asked for only when the plan drops a module.
   */
  bannerLines?: () => Promise<readonly string[]>;
}): Promise<ChangeSet> {
  const { planned, manifest, view } = input;
  const linked = new Set<string>();
  // A symbolic link in the way is recorded, never read through (undefined: no file there).
  const read = async (path: string): Promise<Buffer | null | undefined> => {
    try {
      return await view.read(path);
    } catch (error) {
      if (!(error instanceof SymbolicLinkFound)) throw error;
      for (const link of error.links) linked.add(link);
      return null;
    }
  };
  const notThroughLinks = (error: unknown): false => {
    if (error instanceof SymbolicLinkFound) return false;
    throw error;
  };
  const holds = (path: string, sha: string): boolean | Promise<boolean> => {
    try {
      const held = input.holds(path, sha);
      return typeof held === 'boolean' ? held : held.catch(notThroughLinks);
    } catch (error) {
      return notThroughLinks(error);
    }
  };
  const next: Manifest = new Map();
  const stale: F[] = [];
  for (const file of planned) {
    if (!isSafeRelativePath(file.path) || file.path.startsWith('.schema-sync')) {
      throw new WriteError(msg`refusing to write ${JSON.stringify(file.path)}: not a plain path inside the output folder.`);
    }
    const entry = manifest.get(file.path);
    const held = entry !== undefined && entry.input === file.input && holds(file.path, entry.sha);
    if (held === true || (held !== false && (await held))) next.set(file.path, entry!);
    else stale.push(file);
  }
  let unchanged = next.size;
  const inputs = new Map(stale.map((file) => [file.path, file.input]));
  const write: FileWrite[] = [];
  const foreign: string[] = [];
  const rendered = stale.length === 0 ? [] : await input.render(stale);
  for (const file of rendered) {
    const bytes = Buffer.from(file.text, 'utf8');
    next.set(file.path, { input: inputs.get(file.path)!, sha: hashOf(bytes) });
    const current = await read(file.path);
    if (current === null) continue;
    if (current !== undefined && sameBytes(current, bytes)) {
      unchanged++;
      continue;
    }
    await input.stage?.(file.path, bytes);
    write.push({ path: file.path, found: current !== undefined });
    if (current !== undefined && !manifest.has(file.path)) foreign.push(file.path);
  }
  // Only a file with the bytes schema-sync wrote is deleted: one edited since is left in place,
  // and so is a module without the banner, which schema-sync did not write whatever the manifest says.
  const deletes: string[] = [];
  const edited: string[] = [];
  const unmarked: string[] = [];
  let banners: ReadonlySet<string> | undefined;
  for (const [path, entry] of manifest) {
    if (next.has(path)) continue;
    const bytes = await read(path);
    if (bytes === undefined || bytes === null) continue;
    if (input.bannerLines !== undefined) {
      const module = writtenWithBanner(path);
      if (module) banners ??= new Set((await input.bannerLines()).filter((line) => line.trim() !== ''));
      if (module ? !carriesBanner(bytes, banners!) : !OWN_PLAIN_FILES.has(path)) {
        unmarked.push(path);
        continue;
      }
    }
    (holdsWritten(bytes, entry.sha) ? deletes : edited).push(path);
  }
  const byPath = (a: { path: string }, b: { path: string }) => compareStrings(a.path, b.path);
  return {
    write: write.sort(byPath),
    delete: deletes.sort(compareStrings),
    unchanged,
    edited: edited.sort(compareStrings),
    unmarked: unmarked.sort(compareStrings),
    foreign: foreign.sort(compareStrings),
    linked: [...linked].sort(compareStrings),
    manifest: next,
  };
}

/**
 * Whether a file holds `expected` up to line endings. A checkout with `core.autocrlf=true` (Git for
 * Windows' default, and Windows runners') holds every committed text file with CRLF: such a
 * file is in sync, not stale, and is left as Git wrote it.
 */
function sameBytes(bytes: Buffer, expected: Buffer): boolean {
  return bytes.equals(expected) || (bytes.length > expected.length && lfEndings(bytes).equals(expected));
}

/**
 * Whether a generated file still holds the bytes schema-sync wrote (hash `sha`), up to line
 * endings (see {@link sameBytes}): only such a file is deleted, by a run or by a journal's replay.
 */
export function holdsWritten(bytes: Buffer, sha: string): boolean {
  return hashOf(bytes) === sha || hashOf(lfEndings(bytes)) === sha;
}

/** `bytes` with each CRLF as LF. */
function lfEndings(bytes: Buffer): Buffer {
  return bytes.includes('\r\n') ? Buffer.from(bytes.toString('latin1').replaceAll('\r\n', '\n'), 'latin1') : bytes;
}

import { closeSync, constants, existsSync, lstatSync, openSync, readdirSync, rmdirSync, unlinkSync, utimesSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { cacheDirRefusal, readCacheFile } from './cache-dir.js';

/**
 * The cache folder stays bounded: every run adds to it (a run record and a stat cache per output
 * folder, a V8 code-cache entry per build of the CLI and per install path), and nothing else
 * ever removes what it adds. Pruning is cheap and rare: at most once a day per kind (a marker
 * file's time says when it last ran; a run pays one stat for it otherwise), after the run's work.
 * It removes only what can be made again: a cache only ever makes a run faster. And only what
 * schema-sync names and this user wrote, in a cache folder {@link cacheDirRefusal} allows,
 * never through a link: a cache folder that is not what it should be is not pruned at all.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** How often each kind of entry is pruned. */
const PRUNE_EVERY_MS = DAY_MS;

/** An output folder's records that no run has written for this long are removed. */
export const UNUSED_MS = 30 * DAY_MS;

/** Code-cache entries kept beyond those this run used (other builds, other install paths), the newest first. */
export const KEEP_OTHER_CODE = 6;

/** A file a write left behind (`<file>.<pid>.tmp`, see `writeCacheFile`) older than this is removed. */
const STALE_TEMP_MS = DAY_MS;

/** The record files of one output folder: `<kind>-<hash of the folder's path>.<extension>`. */
const RECORD_FILE = /^(?:memo|stat|elements)-([0-9a-f]+)\.(?:json|tsv)$/;

/** A file a write left behind (`writeCacheFile`): a record's, or a code-cache entry's, then `.<pid>.tmp`. */
const TEMP_FILE = /^(?:(?:memo|stat|elements)-[0-9a-f]+\.(?:json|tsv)|[0-9a-f]{24})\.\d+\.tmp$/;

/** The code cache's folders, one per Node version and architecture (`v8-v20.19.0-x64`). */
const CODE_CACHE_DIR = /^v8-v[\w.-]+$/;

/** A code-cache entry: the hash of the file it compiles (`start-up.ts`), or a write of one left behind. */
const CODE_CACHE_ENTRY = /^[0-9a-f]{24}(?:\.\d+\.tmp)?$/;

/**
 * Whether `kind` is due for pruning in `dir` (its marker is missing or a day old); when it is,
 * the marker is set to `now` first, so concurrent runs do not all prune.
 */
function claimPruning(dir: string, kind: string, now: number): boolean {
  const marker = join(dir, `pruned-${kind}`);
  try {
    if (cacheDirRefusal(dir) !== undefined) return false;
    const stat = lstatSync(marker, { throwIfNoEntry: false });
    if (stat !== undefined && !ownFile(stat)) return false;
    if (stat !== undefined && now - stat.mtimeMs < PRUNE_EVERY_MS && stat.mtimeMs <= now) return false;
    if (stat === undefined) closeSync(openSync(marker, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600));
    utimesSync(marker, now / 1000, now / 1000);
    return true;
  } catch {
    // No cache folder yet, or one that cannot be written: nothing to prune there.
    return false;
  }
}

/**
 * Removes the records (run record, stat cache and answer elements) of output folders that no longer exist, or that
 * no run has written for {@link UNUSED_MS}, and temp files a killed write left behind; at most
 * once a day. `now` is the run's clock.
 */
export function pruneRecords(dir: string, now: number): void {
  if (!claimPruning(dir, 'records', now)) return;
  const groups = new Map<string, string[]>();
  for (const name of listFolder(dir)) {
    if (TEMP_FILE.test(name)) {
      if (olderThan(join(dir, name), now - STALE_TEMP_MS)) removeFile(join(dir, name));
      continue;
    }
    const key = RECORD_FILE.exec(name)?.[1];
    if (key !== undefined) groups.set(key, [...(groups.get(key) ?? []), name]);
  }
  for (const [key, names] of groups) {
    const files = names.map((name) => join(dir, name));
    const outDir = recordedOutDir(join(dir, `memo-${key}.json`));
    const gone = outDir !== undefined && !existsSync(outDir);
    if (gone || files.every((file) => olderThan(file, now - UNUSED_MS))) files.forEach(removeFile);
  }
}

/**
 * Removes V8 code-cache entries (`v8-*` folders of `dir`) beyond the ones this run used (`used`,
 * full paths) and the {@link KEEP_OTHER_CODE} newest others, and the folders left empty; at most
 * once a day. Each entry is a few MB, and each build or install path of the CLI makes its own.
 */
export function pruneCodeCache(dir: string, used: ReadonlySet<string>, now: number): void {
  if (!claimPruning(dir, 'code', now)) return;
  const others: Array<{ file: string; mtimeMs: number }> = [];
  const folders = listFolder(dir).filter((name) => CODE_CACHE_DIR.test(name)).map((name) => join(dir, name)).filter((folder) => cacheDirRefusal(folder) === undefined);
  for (const folder of folders) {
    for (const name of listFolder(folder)) {
      const file = join(folder, name);
      if (used.has(file) || !CODE_CACHE_ENTRY.test(name)) continue;
      const stat = lstatOf(file);
      if (stat !== undefined && ownFile(stat)) others.push({ file, mtimeMs: stat.mtimeMs });
    }
  }
  others.sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const { file } of others.slice(KEEP_OTHER_CODE)) removeFile(file);
  for (const folder of folders) {
    try {
      rmdirSync(folder);
    } catch {
      // Not empty (or gone): kept.
    }
  }
}

/** The output folder a run record names (undefined for one that names none or cannot be read). */
function recordedOutDir(file: string): string | undefined {
  try {
    const outDir = (JSON.parse(readCacheFile(file)?.toString('utf8') ?? '') as { outDir?: unknown }).outDir;
    return typeof outDir === 'string' && outDir !== '' ? outDir : undefined;
  } catch {
    return undefined;
  }
}

function listFolder(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function lstatOf(file: string): Stats | undefined {
  try {
    return lstatSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** A regular file (not a link) of the current user's: one this user's runs wrote. */
function ownFile(stat: Stats): boolean {
  const uid = process.getuid?.();
  return stat.isFile() && (uid === undefined || stat.uid === uid);
}

function olderThan(file: string, time: number): boolean {
  const stat = lstatOf(file);
  return stat !== undefined && stat.mtimeMs < time;
}

/** Removes `file` when it is a file of this user's: never a link's target, never another user's. */
function removeFile(file: string): void {
  const stat = lstatOf(file);
  if (stat === undefined || !ownFile(stat)) return;
  try {
    unlinkSync(file);
  } catch {
    // A cache file that cannot be removed costs disk space only.
  }
}

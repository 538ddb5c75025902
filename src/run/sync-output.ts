import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { outputSettingsKey, planOutput, prettierFormatKey, type PlannedFile } from '../emit/index.js';
import { cacheDir } from '../model/cache-dir.js';
import { compareStrings } from '../model/descriptor.js';
import type { Lockfile } from '../model/lockfile.js';
import { assessFreshness, MANIFEST_FILE, openStatCache, parseManifest, type FolderView, type Freshness, type Manifest } from '../write/index.js';
import type { BaseOptions } from './options.js';
import { contentSha, type RunMemo } from './run-memo.js';

/** The lockfile a run generates from: its text, and its contents when they are needed. */
export interface LockInput {
  text: string;
  /** Parses (once) the lockfile; planning from the memo never needs to. */
  parsed: () => Lockfile;
  /**
   * The lockfile this one replaces, when it has the same names and source, and the names whose
   * entries are the same in both: if the folder is as planned for it, their inputs stand.
   */
  previous?: { text: string; unchanged: ReadonlySet<string> };
}

/** The output a lockfile should produce, and how much of it the folder already holds. */
export interface OutputState extends Freshness<PlannedFile> {
  expected: PlannedFile[];
  /** Key of this lockfile and these settings, for the plan memo. */
  planKey: string;
  /** True when the plan came from the memo: the expected files are exactly the manifest's, all fresh. */
  fromMemo: boolean;
  /** How many files the output has (`expected.length`, known without reading the manifest). */
  fileCount: number;
  /** Hash of the manifest assessed, when known (for the snapshot after a write). */
  manifestSha?: string;
}

/** The cache folder of a run, or undefined when caching is off. */
export function runCacheDir(options: BaseOptions, cwd: string): string | undefined {
  return options.cacheDir === false ? undefined : (options.cacheDir ?? cacheDir(process.env, cwd));
}

/**
 * Plans the output of a lockfile and checks it against the folder's manifest, without loading
 * ts-morph: only the stale files need emitting, and a run where nothing changed emits nothing.
 * When the memo says the manifest already lists this lockfile's output, the plan is read from
 * the manifest; should any file be stale, the lockfile is planned after all.
 */
export async function assessOutput(lock: LockInput, options: BaseOptions, paths: { cwd: string; outDir: string }, view: FolderView, memo: RunMemo, earlier?: OutputState): Promise<OutputState>;
/** With `memoOnly`: the plan from the memo when it applies and every file is fresh, else undefined (nothing planned). */
export async function assessOutput(lock: LockInput, options: BaseOptions, paths: { cwd: string; outDir: string }, view: FolderView, memo: RunMemo, earlier: undefined, memoOnly: true): Promise<OutputState | undefined>;
/**
 * `earlier`: a check of the same manifest moments ago (before the answer came in); its fresh
 * files are not checked again.
 */
export async function assessOutput(
  lock: LockInput,
  options: BaseOptions,
  paths: { cwd: string; outDir: string },
  view: FolderView,
  memo: RunMemo,
  earlier?: OutputState,
  memoOnly = false,
): Promise<OutputState | undefined> {
  const templates = templatesDir(options, paths.cwd);
  const formatKey = options.prettier ? await prettierFormatKey(paths.outDir) : undefined;
  const settings = await outputSettingsKey({ templatesDir: templates, packageName: options.packageName, formatKey });
  const keyOf = (text: string) => contentSha(`${contentSha(text)}\0${settings}`);
  const planKey = keyOf(lock.text);
  const stats = openStatCache(paths.outDir, runCacheDir(options, paths.cwd));
  try {
    if (memo.plan?.key === planKey) {
      const bytes = await view.read(MANIFEST_FILE);
      const manifestSha = memo.plan.manifestSha;
      if (bytes !== undefined && contentSha(bytes) === manifestSha) {
        // Every file as the last complete check found it: a stat each, the manifest unread.
        const unchanged = stats.unchangedSince(manifestSha, (path) => view.pathOnDisk(path));
        if (unchanged !== undefined) return memoState(bytes, paths.outDir, planKey, unchanged, manifestSha);
        const manifest = parseManifest(bytes, paths.outDir);
        const expected = plannedFromManifest(manifest);
        const freshness = await assessFreshness(paths.outDir, view, expected, stats, manifest);
        if (freshness.stale.length === 0) {
          stats.snapshot(manifestSha, expected.map((file) => file.path));
          return { expected, ...freshness, planKey, fromMemo: true, fileCount: expected.length, manifestSha };
        }
      }
    }
    if (memoOnly) return undefined;
    const lockfile = lock.parsed();
    // The manifest as planned for the previous lockfile: the unchanged messages' inputs stand.
    let manifest: Manifest | undefined;
    let manifestSha: string | undefined;
    // The early check's manifest, when it is this very one (same hash) and all of it was fresh.
    const checked = earlier !== undefined && earlier.stale.length === 0 && earlier.manifestSha !== undefined && earlier.manifestSha === memo.plan?.manifestSha ? earlier : undefined;
    if (lock.previous !== undefined && memo.plan !== undefined && memo.plan.key === keyOf(lock.previous.text)) {
      if (checked !== undefined) {
        // Parsed once (the manifest of 10,000 files is 1 MB), not again here.
        manifest = checked.manifest;
        manifestSha = checked.manifestSha;
      } else {
        const bytes = await view.read(MANIFEST_FILE);
        if (bytes !== undefined && contentSha(bytes) === memo.plan.manifestSha) {
          manifest = parseManifest(bytes, paths.outDir);
          manifestSha = memo.plan.manifestSha;
        }
      }
    }
    const reuse = manifest === undefined ? undefined : { unchanged: lock.previous!.unchanged, inputs: manifest };
    const expected = await planOutput({ messages: lockfile.messages, source: lockfile.source, templatesDir: templates, packageName: options.packageName, formatKey, settingsKey: settings, reuse });
    // Every file of a wholly fresh manifest was verified: its paths, without listing them again.
    const verified = checked?.manifest ?? (earlier === undefined ? undefined : new Set(earlier.fresh.map((file) => file.path)));
    return { expected, ...(await assessFreshness(paths.outDir, view, expected, stats, manifest, verified)), planKey, fromMemo: false, fileCount: expected.length, manifestSha };
  } finally {
    stats.save();
  }
}

/**
 * The output state of a folder that the stat snapshot showed unchanged: everything fresh, the
 * manifest parsed only if someone asks for the file list.
 */
function memoState(manifestBytes: Buffer, outDir: string, planKey: string, fileCount: number, manifestSha: string): OutputState {
  const manifest = once(() => parseManifest(manifestBytes, outDir));
  const expected = once(() => plannedFromManifest(manifest()));
  return {
    get manifest() {
      return manifest();
    },
    get expected() {
      return expected();
    },
    get fresh() {
      return expected();
    },
    stale: [],
    planKey,
    fromMemo: true,
    fileCount,
    manifestSha,
  };
}

/** The files a manifest lists, as a plan (by path): what the memo says this lockfile generates. */
function plannedFromManifest(manifest: Manifest): PlannedFile[] {
  return [...manifest].map(([path, entry]) => ({ path, input: entry.input })).sort((a, b) => compareStrings(a.path, b.path));
}

/** Whether the manifest lists exactly the expected files with their inputs (no more, no fewer). */
export function manifestListsExactly(manifest: Manifest, expected: readonly PlannedFile[]): boolean {
  return manifest.size === expected.length && expected.every((file) => manifest.get(file.path)?.input === file.input);
}

/** The memo's hash of the manifest now in the folder (after a committed write). */
export function manifestShaOnDisk(outDir: string): string | undefined {
  try {
    return contentSha(readFileSync(join(outDir, MANIFEST_FILE)));
  } catch {
    return undefined;
  }
}

/** Parses lazily, once. */
export function once<T>(make: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: make() }).v;
}

/** The templates folder of the options, resolved. */
export function templatesDir(options: BaseOptions, cwd: string): string | undefined {
  return options.templates === undefined ? undefined : resolve(cwd, options.templates);
}

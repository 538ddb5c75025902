import { resolve } from 'node:path';
import { emitParallel, planOutput, prettierFormatKey, type PlannedFile } from '../emit/index.js';
import type { Lockfile } from '../model/lockfile.js';
import { cacheDir } from '../model/cache-dir.js';
import { assessFreshness, openStatCache, type FolderView, type Freshness, type OutputFile } from '../write/index.js';
import type { BaseOptions } from './options.js';

/** The output a lockfile should produce, and how much of it the folder already holds. */
export interface OutputState extends Freshness<PlannedFile> {
  expected: PlannedFile[];
}

/**
 * Plans the output of a lockfile and checks it against the folder's manifest, without loading
 * ts-morph: only the stale files need emitting, and a run where nothing changed emits nothing.
 */
export async function assessOutput(lock: Lockfile, options: BaseOptions, paths: { cwd: string; outDir: string }, view: FolderView): Promise<OutputState> {
  const expected = await planOutput({
    messages: lock.messages,
    source: lock.source,
    templatesDir: templatesDir(options, paths.cwd),
    packageName: options.packageName,
    formatKey: options.prettier ? await prettierFormatKey(paths.outDir) : undefined,
  });
  const stats = openStatCache(paths.outDir, options.cacheDir === false ? undefined : (options.cacheDir ?? cacheDir(process.env, paths.cwd)));
  const freshness = await assessFreshness(paths.outDir, view, expected, stats);
  stats.save();
  return { expected, ...freshness };
}

/** Emits (and formats, when asked) just the given files of a lockfile's output. */
export async function renderFiles(lock: Lockfile, options: BaseOptions, paths: { cwd: string; outDir: string }, files: readonly PlannedFile[]): Promise<OutputFile[]> {
  if (files.length === 0) return [];
  return emitParallel({
    emit: { messages: lock.messages, source: lock.source, templatesDir: templatesDir(options, paths.cwd), packageName: options.packageName },
    only: new Set(files.flatMap((f) => (f.message === undefined ? [] : [f.message]))),
    paths: new Set(files.map((f) => f.path)),
    prettierOutDir: options.prettier ? paths.outDir : undefined,
  });
}

function templatesDir(options: BaseOptions, cwd: string): string | undefined {
  return options.templates === undefined ? undefined : resolve(cwd, options.templates);
}

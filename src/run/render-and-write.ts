/**
 * The write path of pull and generate: the stale files rendered (staged ahead on another thread
 * when many), the folder and lockfile written in one transaction, and a stat snapshot left for
 * the next run.
 */
import { renderSelected, type PlannedFile } from '../emit/index.js';
import type { Lockfile } from '../model/lockfile.js';
import { openStatCache, StageAhead, writeOutput, type FolderView, type Manifest, type OutputFile, type WriteResult } from '../write/index.js';
import type { BaseOptions } from './options.js';
import { contentSha } from './run-memo.js';
import { runCacheDir, templatesDir, type OutputState } from './sync-output.js';

/** Emits (and formats, when asked) just the given files of a lockfile's output; `stage` gets them as they are final. */
export async function renderFiles(lock: Lockfile, options: BaseOptions, paths: { cwd: string; outDir: string }, files: readonly PlannedFile[], stage?: StageAhead): Promise<OutputFile[]> {
  if (files.length === 0) return [];
  return renderSelected({
    emit: { messages: lock.messages, source: lock.source, templatesDir: templatesDir(options, paths.cwd), packageName: options.packageName },
    only: new Set(files.flatMap((f) => (f.message === undefined ? [] : [f.message]))),
    paths: new Set(files.map((f) => f.path)),
    prettierOutDir: options.prettier ? paths.outDir : undefined,
  });
}

/**
 * Below this many files to write, starting a staging worker costs more than it saves (~20 µs
 * of file system calls per file, against ~30 ms to start a thread).
 */
const STAGE_AHEAD_MIN_FILES = 2000;

/** What {@link renderAndWrite} did. */
export interface RenderedWrite {
  write: WriteResult;
  /** The run memo's hash of the manifest now in the folder. */
  manifestSha: string;
}

/**
 * Renders the stale files of `output` and writes the folder (with `lockfile`, when given) in one
 * transaction; call with the run lock held. A run that writes many files stages them ahead
 * while they are printed (not with prettier: formatted files are final only at the end); if
 * the run fails before its commit, that staging is removed.
 */
export async function renderAndWrite(
  lock: Lockfile,
  options: BaseOptions,
  paths: { cwd: string; outDir: string },
  view: FolderView,
  output: OutputState,
  extra: { lockfile?: { path: string; text: string }; onRendered?: () => void } = {},
): Promise<RenderedWrite> {
  const stage = output.stale.length >= STAGE_AHEAD_MIN_FILES && !options.prettier ? new StageAhead(paths.outDir) : undefined;
  let committed: { manifest: Manifest; manifestSha: string } | undefined;
  let write: WriteResult;
  try {
    const files = await renderFiles(lock, options, paths, output.stale, stage);
    extra.onRendered?.();
    const stagedAhead = await stage?.finish();
    write = await writeOutput({
      outDir: paths.outDir,
      view,
      expected: output.expected,
      files,
      manifest: output.manifest,
      lockfile: extra.lockfile,
      stagedAhead,
      // The manifest's text is its bytes on disk now: hashed here, not read back.
      onCommitted: (manifest, text) => (committed = { manifest, manifestSha: contentSha(text) }),
    });
  } catch (error) {
    await stage?.discard();
    throw error;
  }
  snapshotAfterWrite(options, paths, committed!, write, output);
  return { write, manifestSha: committed!.manifestSha };
}

/**
 * Above this many written files, a snapshot after the write costs the run more (a stat of every
 * file) than it saves the next one; a cold run of 10,000 files leaves it to the next check.
 */
const SNAPSHOT_AFTER_WRITE_MAX_FILES = 1000;

/**
 * Leaves the stat snapshot of the folder just written, so that the next run (typically a no-op,
 * or a pull checking the folder while its request is in flight) finds every file as this run
 * left it with one stat each, instead of checking them all again.
 */
function snapshotAfterWrite(options: BaseOptions, paths: { cwd: string; outDir: string }, committed: { manifest: Manifest; manifestSha: string }, write: WriteResult, before: OutputState): void {
  if (write.written.length === 0 || write.written.length > SNAPSHOT_AFTER_WRITE_MAX_FILES) return;
  const stats = openStatCache(paths.outDir, runCacheDir(options, paths.cwd));
  const files = [...committed.manifest].map(([path, entry]) => [path, entry.sha] as const);
  const previous = before.manifestSha === undefined ? undefined : { manifestSha: before.manifestSha, shaOf: (path: string) => before.manifest.get(path)?.sha };
  try {
    stats.snapshotAfterWrite(committed.manifestSha, files, new Set(write.written), (path) => `${paths.outDir}/${path}`, previous);
  } catch {
    // A file that cannot be stat'ed now (permissions): no snapshot, the next run checks as usual.
  }
}

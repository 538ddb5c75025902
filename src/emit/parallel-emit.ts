import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { compareStrings } from '../model/descriptor.js';
import { emitFilesFor, type EmitOptions, type EmittedFile } from './emit-files.js';
import { FormatPool } from './format-pool.js';
import type { FormatWorkerData } from './format-service.js';
import { formatWithPrettier } from './prettier.js';

/** Options of {@link emitParallel}. */
export interface ParallelEmitOptions {
  emit: EmitOptions;
  /** Message names to emit modules for. */
  only: ReadonlySet<string>;
  /** Paths wanted in the result (message modules and whole-listing files). */
  paths: ReadonlySet<string>;
  /** Format with prettier, config resolved from this folder. */
  prettierOutDir?: string;
  /**
   * Worker threads that format with prettier beside this one; 0 formats in this thread alone.
   * Without prettier, everything is emitted in this thread.
   * @default decided by {@link workerCount}
   */
  workers?: number;
  /** Called with wanted files as soon as they are final (without prettier: as they are printed). */
  onFinal?: (files: EmittedFile[]) => void;
}

/**
 * Prettier costs ~1.5 ms a file once V8 has optimised it, but every thread formatting with it
 * pays that optimisation anew (~3 s of compiler time on V8's helper threads) on top of loading
 * it (~0.2 s). Measured on two cores: a worker slows 1,000 files down and speeds 3,000 up a
 * little (10,000: ~19 s → ~17 s for the whole pull); below this many files per worker, one
 * thread is as fast.
 */
const MIN_PRETTIER_FILES_PER_WORKER = 2000;

/**
 * Message modules printed in the first chunk handed to the format pool; later chunks double up
 * to {@link MAX_CHUNK}. Small at first so workers start formatting early, larger later because
 * every chunk re-plans the whole listing (~35 ms for 10,000 types).
 */
const FIRST_CHUNK = 256;
const MAX_CHUNK = 4096;

/**
 * How many prettier worker threads to start beside this one: none without prettier, for small
 * runs, or when running from TypeScript sources (tests), where a worker cannot load the `.ts`
 * entry; else one per further core. `SCHEMA_SYNC_EMIT_WORKERS` overrides it (0 = never).
 */
export function workerCount(files: number, prettier: boolean, env: NodeJS.ProcessEnv = process.env): number {
  const forced = env['SCHEMA_SYNC_EMIT_WORKERS'];
  const runnable = !import.meta.url.endsWith('.ts');
  if (forced !== undefined && forced !== '') return runnable ? Math.max(0, Number.parseInt(forced, 10) || 0) : 0;
  if (!runnable || !prettier) return 0;
  return Math.min(availableParallelism() - 1, Math.floor(files / MIN_PRETTIER_FILES_PER_WORKER));
}

/**
 * Emits the wanted files and, when asked, formats them with prettier. With workers, this
 * thread prints the files in chunks and hands each chunk to a {@link FormatPool}, whose workers
 * format while printing goes on; this thread joins in once printing is done. Same bytes as
 * emitting and formatting in one thread; the order of the result is by path.
 */
export async function emitParallel(options: ParallelEmitOptions): Promise<EmittedFile[]> {
  const outDir = options.prettierOutDir;
  const workers = outDir === undefined ? 0 : (options.workers ?? workerCount(options.paths.size, true));
  if (outDir === undefined || workers < 1) {
    const { onFinal } = options;
    const final = outDir === undefined && onFinal !== undefined ? (printed: EmittedFile[]) => onFinal(printed.filter((f) => options.paths.has(f.path))) : undefined;
    const files = (await emitFilesFor({ ...options.emit, only: options.only, shared: wantsShared(options), onPrinted: final })).filter((f) => options.paths.has(f.path));
    return outDir === undefined ? files : formatWithPrettier(files, { outDir });
  }
  const pool = new FormatPool({ outDir, workers, start: startFormatWorker });
  try {
    for await (const files of printInChunks(options)) pool.add(files);
    return (await pool.finish()).sort((a, b) => compareStrings(a.path, b.path));
  } finally {
    await pool.close();
  }
}

/** Whether a whole-listing file is wanted: a 10,000-line index is printed only then. */
function wantsShared(options: ParallelEmitOptions): boolean {
  return [...options.paths].some((path) => !path.startsWith('messages/'));
}

function startFormatWorker(outDir: string): Worker {
  return new Worker(new URL('../emit/emit-worker.js', import.meta.url), { workerData: { outDir } satisfies FormatWorkerData });
}

/**
 * The wanted files in chunks: the whole-listing files first (`index.ts` is the largest file by
 * far, so it must not be the last one formatted), then the message modules.
 */
async function* printInChunks(options: ParallelEmitOptions): AsyncGenerator<EmittedFile[]> {
  const wanted = (files: EmittedFile[]) => files.filter((f) => options.paths.has(f.path));
  if (wantsShared(options)) {
    yield wanted(await emitFilesFor({ ...options.emit, only: new Set(), shared: true }));
  }
  const names = [...options.only];
  for (let at = 0, size = FIRST_CHUNK; at < names.length; at += size, size = Math.min(2 * size, MAX_CHUNK)) {
    yield wanted(await emitFilesFor({ ...options.emit, only: new Set(names.slice(at, at + size)), shared: false }));
  }
}

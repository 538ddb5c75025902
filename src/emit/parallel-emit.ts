import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { EmitError, SchemaSyncError, type ErrorCode } from '../model/errors.js';
import { emitFilesFor, type EmitOptions, type EmittedFile } from './emit-files.js';
import { formatWithPrettier } from './prettier.js';

/** What one worker is asked to do. */
export interface WorkerTask {
  emit: EmitOptions;
  /** Message names whose modules this worker emits. */
  only: string[];
  /** Whether this worker also emits the whole-listing files (index, types, package). */
  shared: boolean;
  /** Keep only these paths (after emitting), when set. */
  paths?: string[];
  /** Format with prettier, config resolved from this folder. */
  prettierOutDir?: string;
}

/** Options of {@link emitParallel}. */
export interface ParallelEmitOptions {
  emit: EmitOptions;
  /** Message names to emit modules for. */
  only: ReadonlySet<string>;
  /** Paths wanted in the result (message modules and whole-listing files). */
  paths: ReadonlySet<string>;
  /** Format with prettier, config resolved from this folder. */
  prettierOutDir?: string;
  /** Worker count; 0 or 1 emits in this thread. @default decided by {@link workerCount} */
  workers?: number;
}

/**
 * Workers pay only for prettier (~2 ms a file): emitting alone never does on two cores, since
 * each worker loads ts-morph and TypeScript itself (~0.5 s and ~100 MB), as long as printing
 * 10,000 files takes. Below this many files per worker, start-up costs more than it saves.
 */
const MIN_PRETTIER_FILES_PER_WORKER = 100;

/**
 * How many workers to use: none without prettier, for small runs, or when running from
 * TypeScript sources (tests), where a worker cannot load the `.ts` entry; else one per core.
 * `SCHEMA_SYNC_EMIT_WORKERS` overrides it (0 = never).
 */
export function workerCount(files: number, prettier: boolean, env: NodeJS.ProcessEnv = process.env): number {
  const forced = env['SCHEMA_SYNC_EMIT_WORKERS'];
  const runnable = import.meta.url.endsWith('.js');
  if (forced !== undefined && forced !== '') return runnable ? Math.max(0, Number.parseInt(forced, 10) || 0) : 0;
  if (!runnable || !prettier) return 0;
  return Math.min(availableParallelism(), Math.floor(files / MIN_PRETTIER_FILES_PER_WORKER));
}

/**
 * Emits the wanted files, split across worker threads by message name (the whole-listing files
 * go to the first worker), then formats them with prettier when asked. Same bytes as emitting
 * in one thread; the order of the result is by path.
 */
export async function emitParallel(options: ParallelEmitOptions): Promise<EmittedFile[]> {
  const names = [...options.only];
  const workers = options.workers ?? workerCount(options.paths.size, options.prettierOutDir !== undefined);
  if (workers < 2) {
    const files = (await emitFilesFor({ ...options.emit, only: options.only })).filter((f) => options.paths.has(f.path));
    return options.prettierOutDir === undefined ? files : formatWithPrettier(files, { outDir: options.prettierOutDir });
  }
  const slices = Array.from({ length: workers }, (_, i) => names.filter((_, j) => j % workers === i));
  const results = await Promise.all(
    slices.map((only, i) =>
      runWorker({ emit: options.emit, only, shared: i === 0, paths: [...options.paths], prettierOutDir: options.prettierOutDir }),
    ),
  );
  return results.flat().sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function runWorker(task: WorkerTask): Promise<EmittedFile[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./emit-worker.js', import.meta.url), { workerData: task });
    let settled = false;
    worker.once('message', (message: { ok: true; files: EmittedFile[] } | { ok: false; name: string; code?: ErrorCode; message: string; hint?: string }) => {
      settled = true;
      void worker.terminate();
      if (message.ok) return resolve(message.files);
      reject(message.code ? new SchemaSyncError(message.code, message.message, { hint: message.hint }) : new EmitError(`emit worker failed: ${message.name}: ${message.message}`));
    });
    worker.once('error', (error) => {
      if (!settled) reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new EmitError(`emit worker exited with code ${code} before answering.`));
    });
  });
}

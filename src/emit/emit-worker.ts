/**
 * Worker-thread entry: emits (and optionally formats) one slice of the message files, so a
 * large emit or prettier run uses every core. Receives a {@link WorkerTask}, answers with the
 * files or with the error's name, code, message and hint.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { isSchemaSyncError } from '../model/errors.js';
import { emitFilesFor } from './emit-files.js';
import { formatWithPrettier } from './prettier.js';
import type { WorkerTask } from './parallel-emit.js';

const task = workerData as WorkerTask;
try {
  const files = await emitFilesFor({ ...task.emit, only: new Set(task.only), shared: task.shared });
  const wanted = task.paths ? new Set(task.paths) : undefined;
  const subset = wanted ? files.filter((f) => wanted.has(f.path)) : files;
  const result = task.prettierOutDir === undefined ? subset : await formatWithPrettier(subset, { outDir: task.prettierOutDir });
  parentPort!.postMessage({ ok: true, files: result });
} catch (error) {
  const err = error as Error & { code?: string; hint?: string };
  parentPort!.postMessage({ ok: false, name: err.name, code: isSchemaSyncError(error) ? err.code : undefined, message: err.message, hint: err.hint });
}

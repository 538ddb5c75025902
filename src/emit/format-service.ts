/**
 * The worker side of the prettier format pool (see `format-pool.ts`): the messages exchanged,
 * and the loop a worker runs. Kept apart from the pool so a worker loads only this, the error
 * classes and prettier; never ts-morph.
 */
import { EmitError, SchemaSyncError, type ErrorCode, isSchemaSyncError } from '../model/errors.js';
import type { EmittedFile } from './emit-files.js';
import { createPrettierFormatter } from './prettier.js';

/** What a format worker is started with. */
export interface FormatWorkerData {
  /** Where prettier's configuration search starts. */
  outDir: string;
}

/** A batch of files to format, sent to a worker. */
export interface FormatRequest {
  id: number;
  files: EmittedFile[];
}

/** An error as it crosses threads: class instances do not survive structured cloning. */
export interface SerializedError {
  name: string;
  code?: ErrorCode;
  message: string;
  hint?: string;
}

/** A worker's answer to one {@link FormatRequest}. */
export type FormatReply = { id: number; ok: true; files: EmittedFile[] } | { id: number; ok: false; error: SerializedError };

/** The two ends of a message channel the service needs (a worker's `parentPort`). */
export interface FormatPort {
  on(event: 'message', listener: (request: FormatRequest) => void): unknown;
  postMessage(reply: FormatReply): void;
}

/**
 * Answers every {@link FormatRequest} arriving on `port` with the formatted files (in the order
 * given) or with the first error. Batches are formatted one after another, in arrival order.
 */
export function serveFormatRequests(port: FormatPort, outDir: string): void {
  const formatter = createPrettierFormatter(outDir);
  // Rejections are answered per request below; this only keeps an early one from going unhandled.
  formatter.catch(() => undefined);
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (request) => {
    queue = queue.then(async () => {
      try {
        const format = await formatter;
        port.postMessage({ id: request.id, ok: true, files: await format(request.files) });
      } catch (error) {
        port.postMessage({ id: request.id, ok: false, error: serializeError(error) });
      }
    });
  });
}

/** The parts of an error that {@link deserializeError} rebuilds it from. */
export function serializeError(error: unknown): SerializedError {
  const err = error instanceof Error ? error : new Error(String(error));
  return isSchemaSyncError(err) ? { name: err.name, code: err.code, message: err.message, hint: err.hint } : { name: err.name, message: err.message };
}

/**
 * The error a worker reported, as this thread throws it: an EmitError for the emit stage's own
 * errors (so callers see the same class as without workers), else the schema-sync error of that
 * code, else an EmitError saying which error escaped.
 */
export function deserializeError(error: SerializedError): Error {
  if (error.code === 'EMIT') return new EmitError(error.message, { hint: error.hint });
  if (error.code !== undefined) return new SchemaSyncError(error.code, error.message, { hint: error.hint });
  return new EmitError(`A prettier worker failed: ${error.name}: ${error.message}`);
}

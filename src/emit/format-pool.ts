/**
 * Formats files with prettier on every core while this thread is still printing them: files are
 * queued as they are printed and dealt in small batches to worker threads that load only
 * prettier, each kept a few batches ahead; once printing is done, this thread formats batches
 * from the same queue too. Dealing batches as workers finish (not a fixed split) keeps all
 * threads busy to the end, however uneven the files are (`index.ts` of 10,000 types alone takes
 * seconds).
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { EmitError } from '../model/errors.js';
import type { EmittedFile } from './emit-files.js';
import { deserializeError, type FormatReply, type FormatRequest } from './format-service.js';
import { createPrettierFormatter } from './prettier.js';

/** The parts of a `Worker` the pool uses; tests substitute one that runs in this thread. */
export interface FormatWorker {
  postMessage(request: FormatRequest): void;
  on(event: 'message', listener: (reply: FormatReply) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  terminate(): Promise<unknown>;
}

/** Options of {@link FormatPool}. */
export interface FormatPoolOptions {
  /** Where prettier's configuration search starts, in every thread. */
  outDir: string;
  /** Worker threads besides this one (at least 1). */
  workers: number;
  /** Starts a worker answering format requests (`serveFormatRequests`) for `outDir`. */
  start: (outDir: string) => FormatWorker;
}

/**
 * Batches a worker holds at once: one in hand and the rest waiting, so it never idles while
 * this thread is busy (printing, or formatting a batch of its own) and answers late.
 */
const AHEAD = 3;
/** A batch is this many files (~40 ms of prettier) or fewer, when they are large. */
const BATCH_FILES = 24;
const BATCH_CHARS = 48_000;

interface Slot {
  worker: FormatWorker;
  inFlight: number;
}

/**
 * A prettier pool for one emit run: {@link add} files as they are printed, then {@link finish}
 * for all of them formatted, and always {@link close}. Output bytes are those of formatting each
 * file alone in this thread: every thread formats with a formatter made by
 * `createPrettierFormatter` for the same folder.
 */
export class FormatPool {
  readonly #outDir: string;
  readonly #slots: Slot[] = [];
  readonly #queue: EmittedFile[] = [];
  #next = 0;
  readonly #formatted: EmittedFile[] = [];
  #ids = 0;
  #failure: Error | undefined;
  #closing = false;
  #wake: (() => void) | undefined;

  /** Starts the workers; they load prettier while this thread goes on printing. */
  constructor(options: FormatPoolOptions) {
    this.#outDir = options.outDir;
    for (let i = 0; i < options.workers; i++) {
      const slot: Slot = { worker: options.start(options.outDir), inFlight: 0 };
      slot.worker.on('message', (reply) => this.#answered(slot, reply));
      slot.worker.on('error', (error) => this.#fail(new EmitError(`A prettier worker failed: ${error.message}`)));
      slot.worker.on('exit', (code) => {
        if (!this.#closing) this.#fail(new EmitError(`A prettier worker exited (code ${code}) before it was done.`));
      });
      this.#slots.push(slot);
    }
  }

  /**
   * Queues files for formatting and deals what the workers can take.
   * @throws the error of a worker that already failed, so printing stops early
   */
  add(files: readonly EmittedFile[]): void {
    if (this.#failure) throw this.#failure;
    this.#queue.push(...files);
    this.#deal();
  }

  /**
   * Formats the queued files, in this thread too, and waits for the workers' answers: every
   * file added, formatted, in no particular order.
   * @throws EmitError naming the file when prettier fails; the first error of any thread
   */
  async finish(): Promise<EmittedFile[]> {
    const format = await createPrettierFormatter(this.#outDir);
    for (;;) {
      if (this.#failure) throw this.#failure;
      this.#deal();
      const batch = this.#take();
      if (batch.length > 0) {
        this.#formatted.push(...(await format(batch)));
        // prettier.format only awaits promises: let the workers' answers in between batches.
        await yieldToEventLoop();
      } else if (this.#slots.some((s) => s.inFlight > 0)) {
        await new Promise<void>((resolve) => (this.#wake = resolve));
      } else {
        return this.#formatted;
      }
    }
  }

  /** Stops the workers, whatever state they are in. */
  async close(): Promise<void> {
    this.#closing = true;
    await Promise.all(this.#slots.map((s) => s.worker.terminate()));
  }

  /** Keeps every worker {@link AHEAD} batches ahead while files are queued. */
  #deal(): void {
    for (const slot of this.#slots) {
      while (slot.inFlight < AHEAD && this.#next < this.#queue.length) {
        slot.worker.postMessage({ id: ++this.#ids, files: this.#take() });
        slot.inFlight++;
      }
    }
  }

  /** The next batch from the queue: at least one file, while there are any. */
  #take(): EmittedFile[] {
    const batch: EmittedFile[] = [];
    let chars = 0;
    while (this.#next < this.#queue.length && batch.length < BATCH_FILES) {
      const file = this.#queue[this.#next]!;
      if (batch.length > 0 && chars + file.text.length > BATCH_CHARS) break;
      // Let go of the printed text: the queue would otherwise hold every file twice.
      this.#queue[this.#next++] = undefined as unknown as EmittedFile;
      batch.push(file);
      chars += file.text.length;
    }
    return batch;
  }

  #answered(slot: Slot, reply: FormatReply): void {
    slot.inFlight--;
    if (reply.ok) this.#formatted.push(...reply.files);
    else this.#fail(deserializeError(reply.error));
    this.#deal();
    this.#wakeUp();
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    this.#wakeUp();
  }

  #wakeUp(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

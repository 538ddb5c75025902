import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { JOURNAL, STAGED_FILES, STAGING_DIR } from './journal.js';
import type { OutputFile } from './write-output.js';

/**
 * The worker's whole program, CommonJS, so it needs no file of its own (the CLI is one bundle):
 * write each file of a batch under the staging folder and hash it as the manifest does (see
 * `hashBytes`); on the first failure stop, and say so at the end, when `null` arrives.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { mkdirSync, writeFileSync } = require('node:fs');
const { hash } = require('node:crypto');
const { dirname } = require('node:path');
const made = new Set();
const shas = [];
let failed = false;
parentPort.on('message', (batch) => {
  if (batch === null) return parentPort.postMessage(failed ? null : shas);
  if (failed) return;
  try {
    for (const [path, text] of batch) {
      const dir = dirname(path);
      if (!made.has(dir)) mkdirSync(dir, { recursive: true }), made.add(dir);
      writeFileSync(path, text);
      shas.push(hash('sha256', text, 'hex').slice(0, 24));
    }
  } catch {
    failed = true;
  }
});`;

/** A file as staged: its text and the manifest's hash of it. */
export interface StagedFile {
  text: string;
  sha: string;
}

/**
 * Files written into a run's staging folder while the rest are still being printed: a worker
 * thread does the file system calls (~20 µs a file) on another core, so a run that writes
 * 10,000 files no longer does them after printing. Purely a head start: {@link commitTransaction}
 * gets the texts staged and writes whatever is missing or different itself, and a failed worker
 * counts as having staged nothing.
 *
 * Start it only with the run lock held, after any interrupted run is recovered: it empties the
 * staging folder.
 */
export class StageAhead {
  readonly #root: string;
  readonly #worker: Worker;
  readonly #files: OutputFile[] = [];
  #ended: Promise<string[] | undefined> | undefined;
  #failed = false;

  constructor(outDir: string) {
    const staging = join(outDir, STAGING_DIR);
    rmSync(staging, { recursive: true, force: true });
    this.#root = join(staging, STAGED_FILES);
    mkdirSync(this.#root, { recursive: true });
    this.#worker = new Worker(WORKER_SOURCE, { eval: true });
    // An exiting process must not wait for a worker whose work was abandoned.
    this.#worker.unref();
    this.#worker.on('error', () => (this.#failed = true));
  }

  /** Queues files for staging (paths relative to the output folder, already validated as safe). */
  add(files: readonly OutputFile[]): void {
    if (files.length === 0 || this.#ended !== undefined) return;
    this.#files.push(...files);
    this.#worker.postMessage(files.map((file) => [join(this.#root, ...file.path.split('/')), file.text]));
  }

  /**
   * Waits for the queued writes and stops the worker.
   * @returns the files staged, by path; empty when staging failed anywhere
   */
  async finish(): Promise<ReadonlyMap<string, StagedFile>> {
    this.#ended ??= new Promise<string[] | undefined>((resolve) => {
      this.#worker.once('message', (shas: string[] | null) => resolve(shas ?? undefined));
      this.#worker.once('exit', () => resolve(undefined));
      this.#worker.postMessage(null);
    }).finally(() => this.#worker.terminate());
    const shas = await this.#ended;
    const staged = new Map<string, StagedFile>();
    if (shas === undefined || this.#failed || shas.length !== this.#files.length) return staged;
    this.#files.forEach((file, i) => staged.set(file.path, { text: file.text, sha: shas[i]! }));
    return staged;
  }

  /**
   * For a run that failed: stops the worker and removes the staging folder, unless a journal was
   * committed there (then the next run must replay it).
   */
  async discard(): Promise<void> {
    await this.#worker.terminate();
    const staging = dirname(this.#root);
    if (!existsSync(join(staging, JOURNAL))) rmSync(staging, { recursive: true, force: true });
  }
}

import { PassThrough, Writable } from 'node:stream';
import type { CliIo } from '../../src/cli/io.js';
import type { RetryTimers } from '../../src/fetch/index.js';
import { runCli } from '../../src/cli/main.js';
import { runCacheEnv } from '../helpers/cli.js';

/** A stream that keeps what was written; `isTTY` as asked. */
export class Capture extends Writable {
  text = '';
  isTTY: boolean;
  columns = 100;
  constructor(tty = false) {
    super();
    this.isTTY = tty;
  }
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

export interface FakeRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI in-process with captured streams; env is what is given (no colour unless asked),
 * with the test run's cache folder unless it names one; `timers`, the retries' waits (real time
 * unless given).
 */
export async function runInProcess(
  argv: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; tty?: boolean; stdin?: string; columns?: number; timers?: RetryTimers },
): Promise<FakeRun> {
  const stdout = new Capture(options.tty ?? false);
  if (options.columns !== undefined) stdout.columns = options.columns;
  const stderr = new Capture(options.tty ?? false);
  const stdin = new PassThrough();
  stdin.end(options.stdin ?? '');
  // `serve` stops at once: the test only sees it start, print its URL and close.
  const io: CliIo = { stdout, stderr, stdin, env: { ...runCacheEnv(), ...options.env }, cwd: options.cwd, untilStopped: () => Promise.resolve(), timers: options.timers };
  const code = await runCli(argv, io);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

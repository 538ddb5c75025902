import type { RetryTimers } from '../fetch/index.js';

/** What the CLI touches of the process: injected so tests can run it in-process. */
export interface CliIo {
  /** `columns`: a terminal's width, where `--help` wraps. */
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Resolves when the user asks to stop (Ctrl-C / SIGTERM); used by `serve`. */
  untilStopped?: () => Promise<void>;
  /**
   * The waits between a request's tries and the time a `Retry-After` date is read against (a
   * test passes its own, so that a retry costs it no real time). @default real time
   */
  timers?: RetryTimers;
}

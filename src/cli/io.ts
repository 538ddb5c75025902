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
}

/** The CLI's entry as a function: what the bundle `dist/cli/schema-sync.cjs` exports (see start-up.ts). */
import type { CliIo } from './io.js';
import { runCli } from './main.js';

/** Runs the CLI with the real process's streams; resolves to the exit code. */
export function main(argv: readonly string[]): Promise<number> {
  return runCli([...argv], processIo());
}

/** The real process. */
function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    untilStopped: () =>
      new Promise((resolve) => {
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      }),
  };
}

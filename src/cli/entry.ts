/**
 * The CLI's entry as a function, for the bundle `dist/cli/schema-sync.cjs` that the launcher
 * (`bin.js`) loads: one file compiles and loads far faster than the ~300 modules behind it.
 */
import { processIo } from './io.js';
import { runCli } from './main.js';

/** Runs the CLI with the real process's streams; resolves to the exit code. */
export function main(argv: readonly string[]): Promise<number> {
  return runCli([...argv], processIo());
}

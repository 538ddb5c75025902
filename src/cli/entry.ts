/** The CLI's entry as a function: what the bundle `dist/cli/schema-sync.cjs` exports (see start-up.ts). */
import { processIo } from './io.js';
import { runCli } from './main.js';

/** Runs the CLI with the real process's streams; resolves to the exit code. */
export function main(argv: readonly string[]): Promise<number> {
  return runCli([...argv], processIo());
}

#!/usr/bin/env node
import { interruptedLine, SIGNAL_EXIT } from './exit-codes.js';
import { loadCli } from './start-up.js';

/**
 * Ctrl-C and SIGTERM end the process, saying so. A run that holds the output folder's lock
 * listens to them too: it rolls back what it has not committed (or finishes what it has), and
 * the CLI then ends as interrupted, saying which. Without the lock a run has written nothing. A
 * second signal ends it at once. Installed before the CLI's modules load, so a Ctrl-C during
 * start-up is handled alike.
 */
function endOnInterrupt(): void {
  let received = 0;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (process.listenerCount(signal) > 1 && ++received === 1) return;
      process.stderr.write(interruptedLine(signal, received === 0 ? 'untouched' : 'unknown'));
      process.exit(SIGNAL_EXIT[signal]);
    });
  }
}

const argv = process.argv.slice(2);
if (argv[0] !== 'serve') endOnInterrupt();
const entry = await loadCli();
// exitCode, not process.exit(): let pending writes to stdout/stderr drain first.
process.exitCode = await entry.main(argv);

#!/usr/bin/env node
import { EXIT } from './exit-codes.js';
import { loadCli } from './start-up.js';

const argv = process.argv.slice(2);
if (argv[0] !== 'serve') {
  // Ctrl-C stops at once: the output folder and lockfile change in one committed transaction,
  // so wherever this lands, the next schema-sync command sees them wholly before or after.
  // Installed before the CLI's modules load, so a Ctrl-C during start-up is handled alike.
  for (const [signal, code] of [['SIGINT', EXIT.interrupted], ['SIGTERM', 143]] as const) {
    process.once(signal, () => {
      process.stderr.write(`schema-sync: interrupted (${signal}); the lockfile and output folder are as before, or the next run completes this one.\n`);
      process.exit(code);
    });
  }
}
const entry = await loadCli();
// exitCode, not process.exit(): let pending writes to stdout/stderr drain first.
process.exitCode = await entry.main(argv);

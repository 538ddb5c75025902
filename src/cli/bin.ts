#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { cacheDir } from '../model/cache-dir.js';
import { installCompileCache } from '../model/compile-cache.js';
import { EXIT } from './exit-codes.js';

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

// undici parses HTTP with llhttp compiled to WebAssembly. V8 re-compiles it with its optimising
// tier in the background, and a process that ends soon after its request waits for that
// (~0.1 s of a 0.5 s run, measured with strace). The baseline tier parses a 3 MB listing just as
// well. Set before any WebAssembly is compiled.
v8.setFlagsFromString('--liftoff-only');

type Entry = typeof import('./entry.js');
// The build bundles the CLI into one CommonJS file (scripts/bundle-cli.mjs), loaded through the
// code cache; a build without it (tsc alone) runs the modules as they are.
const bundle = new URL('./schema-sync.cjs', import.meta.url);
let entry: Entry;
if (existsSync(bundle)) {
  const dir = cacheDir();
  if (dir !== undefined) installCompileCache(dir);
  entry = createRequire(import.meta.url)(fileURLToPath(bundle)) as Entry;
} else {
  entry = await import('./entry.js');
}
// exitCode, not process.exit(): let pending writes to stdout/stderr drain first.
process.exitCode = await entry.main(argv);

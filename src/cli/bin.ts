#!/usr/bin/env node
import { processIo } from './io.js';
import { runCli } from './main.js';

// exitCode, not process.exit(): let pending writes to stdout/stderr drain first.
process.exitCode = await runCli(process.argv.slice(2), processIo());

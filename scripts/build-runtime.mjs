#!/usr/bin/env node
// Writes the records runtime's JavaScript and declarations (runtime/records-runtime.js
// and .d.ts) from its TypeScript source, records-runtime.ts, the one place it is written: the
// `ts` target writes the source into the output folder, `js+dts` these two. The JavaScript is
// esbuild's transform (types stripped, ES2022), the declarations TypeScript's
// transpileDeclaration (the source is written for isolatedDeclarations). Run after editing the
// source; test/emit/records-parse.test.ts ("its JavaScript and declarations are what scripts/build-runtime.mjs makes") fails while the files differ from what it writes.
// Usage: node scripts/build-runtime.mjs [--check]
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runtimeOutputs } from './runtime-outputs.mjs';

const dir = join(dirname(fileURLToPath(import.meta.url)), '../runtime');
const source = await readFile(join(dir, 'records-runtime.ts'), 'utf8');
const outputs = await runtimeOutputs(source);
const check = process.argv.includes('--check');
let stale = false;
for (const [file, text] of Object.entries(outputs)) {
  const path = join(dir, file);
  const before = await readFile(path, 'utf8').catch(() => undefined);
  if (before === text) continue;
  stale = true;
  if (check) console.error(`${file} is not what the source gives: run node scripts/build-runtime.mjs`);
  else await writeFile(path, text);
}
if (check && stale) process.exitCode = 1;

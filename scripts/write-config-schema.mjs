#!/usr/bin/env node
// Writes config.schema.json at the repository root from the built zod config schema
// (dist/config/schema.js), so editors can autocomplete schema-sync.config.json.
// Usage: npm run build && node scripts/write-config-schema.mjs [--check]
//   --check: write nothing; exit 1 when the committed file differs from the generated one.
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, 'config.schema.json');
const { configJsonSchemaText } = await import(pathToFileURL(join(root, 'dist/config/schema.js')).href);
const text = configJsonSchemaText();
const current = await readFile(target, 'utf8').catch(() => undefined);

if (process.argv.includes('--check')) {
  if (current !== text) {
    process.stderr.write('config.schema.json is out of date: run `npm run build && node scripts/write-config-schema.mjs`.\n');
    process.exitCode = 1;
  }
} else if (current === text) {
  process.stdout.write('config.schema.json is up to date\n');
} else {
  await writeFile(target, text);
  process.stdout.write('wrote config.schema.json\n');
}

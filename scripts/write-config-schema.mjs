#!/usr/bin/env node
// Writes the committed copies of the project's tables from the built code (dist/), so that each
// fact is stated once: config.schema.json from the zod config schema (editors autocomplete
// schema-sync.config.json with it), and from the rule table (src/diff/rules.ts) the rule ids and
// severities of report.schema.json and the rule listing in docs/rules.md, and from the settings
// table (src/config/settings-table.ts) the key table of docs/configuration.md.
// Usage: npm run build && node scripts/write-config-schema.mjs [--check]
//   --check: write nothing; exit 1 when a committed file differs from the generated one.
// The tests compare each committed copy with the same functions (test/config/json-schema.test.ts,
// test/diff/rule-copies.test.ts, test/config/generated-copies.test.ts).
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const built = (path) => import(pathToFileURL(join(root, 'dist', path)).href);
const { configJsonSchemaText } = await built('config/schema.js');
const { reportSchemaText, rulesDocText } = await built('diff/rule-copies.js');
const { withKeyTable } = await built('config/key-table.js');

/** Each copy: its path from the repository root, and its text made from the committed one. */
const COPIES = [
  { path: 'config.schema.json', text: () => configJsonSchemaText() },
  { path: 'report.schema.json', text: (committed) => reportSchemaText(committed) },
  { path: 'docs/rules.md', text: (committed) => rulesDocText(committed) },
  { path: 'docs/configuration.md', text: (committed) => withKeyTable(committed) },
];

const check = process.argv.includes('--check');
for (const copy of COPIES) {
  const target = join(root, copy.path);
  const current = await readFile(target, 'utf8').catch(() => undefined);
  const text = copy.text(current);
  if (current === text) {
    if (!check) process.stdout.write(`${copy.path} is up to date\n`);
  } else if (check) {
    process.stderr.write(`${copy.path} is out of date: run \`npm run config-schema\`.\n`);
    process.exitCode = 1;
  } else {
    await writeFile(target, text);
    process.stdout.write(`wrote ${copy.path}\n`);
  }
}

#!/usr/bin/env node
// npm's `prepare`: it runs after `npm ci` / `npm install` in this checkout, when the package is
// installed from git (in npm's clone, where it must build), and also when `npx schema-sync` runs
// inside the checkout (npm packs the folder to run it). It builds only when dist/ is missing or
// older than what it is built from, so `npx schema-sync serve` does not delete a working CLI to
// build the same one again (and, stopped halfway, leave none). The packed package has no
// `prepare` (prepack removes it): installing the tarball builds nothing.
import { execSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The build's last output (scripts/bundle-cli.mjs writes it after tsc). */
const built = join(root, 'dist/cli/schema-sync.cjs');
/** What the build reads, besides the dependencies. */
const inputs = ['src', 'scripts/bundle-cli.mjs', 'tsconfig.json', 'tsconfig.build.json'];

/** Modification time in ms, or undefined when the path does not exist. */
function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

function newestInput() {
  let newest = 0;
  for (const input of inputs) {
    const path = join(root, input);
    const files = statSync(path).isDirectory() ? readdirSync(path, { recursive: true }).map((file) => join(path, file)) : [path];
    for (const file of files) newest = Math.max(newest, mtime(file) ?? 0);
  }
  return newest;
}

const builtAt = mtime(built);
if (builtAt !== undefined && builtAt >= newestInput()) {
  console.log('schema-sync: dist/ is up to date with src/; not rebuilt (npm run build rebuilds it).');
} else {
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}

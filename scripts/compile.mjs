#!/usr/bin/env node
// The build's compile step: `tsc -p tsconfig.build.json` (a full type check of src/), its output
// then copied into dist/, which `npm run build` has just emptied.
//
// tsc compiles incrementally into a cache of its own, .build-cache/ (tsconfig.build.json: its
// outDir and tsBuildInfoFile), kept outside dist/ so that emptying dist/ at every build does not
// empty it. A build after a change then checks and emits only what the change affects (tsc's
// .tsbuildinfo), not all of src/ again; a build from nothing (a fresh clone, npm's clone of a git
// install) has no cache and compiles everything. tsc's incremental emit writes only the files it
// considers changed: it neither re-emits an output deleted behind its back nor deletes the output
// of a source that is gone. So before dist/ takes the cache's files, the outputs of sources no
// longer in src/ are dropped, and a cache that misses an output of a source that is there is
// removed and the compile is run again from nothing. dist/ then holds byte for byte what a
// compile from nothing emits (test/e2e/install.test.ts builds from nothing, after a change, and
// after the change is undone, and compares).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = join(root, '.build-cache');
const EMITTED = join(CACHE, 'tsc');
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** The files under `folder`, relative with `/`. */
function filesUnder(folder) {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true })
    .map((name) => String(name))
    .filter((name) => statSync(join(folder, name)).isFile())
    .map((name) => name.split(sep).join('/'));
}

/** The outputs tsc emits for a TypeScript source of src/ (none for a declaration file or another file). */
function outputsOf(source) {
  const match = /^(.*)\.(tsx?|mts|cts)$/.exec(source);
  if (match === null || /\.d\.(ts|mts|cts)$/.test(source)) return [];
  const [js, dts] = { ts: ['js', 'd.ts'], tsx: ['js', 'd.ts'], mts: ['mjs', 'd.mts'], cts: ['cjs', 'd.cts'] }[match[2]];
  return [`${match[1]}.${js}`, `${match[1]}.${dts}`];
}

/** The sources of src/ that an output of tsc may come from (a file tsc copies as it is comes from itself). */
function sourcesOf(output) {
  const map = /^(.*)\.map$/.exec(output);
  if (map !== null) return sourcesOf(map[1]);
  const match = /^(.*?)\.(d\.ts|d\.mts|d\.cts|js|mjs|cjs)$/.exec(output);
  if (match === null) return [output];
  const forms = { 'd.ts': ['ts', 'tsx'], js: ['ts', 'tsx', 'js'], 'd.mts': ['mts'], mjs: ['mts', 'mjs'], 'd.cts': ['cts'], cjs: ['cts', 'cjs'] }[match[2]];
  return forms.map((form) => `${match[1]}.${form}`);
}

/** tsc over tsconfig.build.json; its diagnostics go to the terminal; exits as tsc failed. */
function compile() {
  const result = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Drops the cache's outputs of sources no longer in src/; whether every source's outputs are there. */
function settle(expected) {
  for (const file of filesUnder(EMITTED)) {
    if (!sourcesOf(file).some((source) => existsSync(join(root, 'src', source)))) rmSync(join(EMITTED, file));
  }
  return [...expected].every((file) => existsSync(join(EMITTED, file)));
}

const expected = new Set(filesUnder(join(root, 'src')).flatMap(outputsOf));
compile();
if (!settle(expected)) {
  console.error('schema-sync: the compile cache (.build-cache/) misses outputs: compiling from nothing.');
  rmSync(CACHE, { recursive: true, force: true });
  compile();
  if (!settle(expected)) throw new Error('tsc did not emit an output for every source of src/');
}
cpSync(EMITTED, join(root, 'dist'), { recursive: true });

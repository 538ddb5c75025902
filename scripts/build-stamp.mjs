#!/usr/bin/env node
// The build stamp: a hash of everything `npm run build` reads, written into dist/ by the build,
// so that `npm pack` (prepack) can tell a dist/ built from the sources as they are now from a
// stale one and build only then. Installing from git runs `prepare` (a build) and then packs the
// clone: without the stamp, the pack built the same dist/ a second time.
//
//   node scripts/build-stamp.mjs begin   the build starts (after dist/ is removed): notes the hash
//                                        of the inputs as they are now, in dist/ (pending)
//   node scripts/build-stamp.mjs end     the build finished: the pending note becomes the stamp
//   node scripts/build-stamp.mjs pack    prepack: builds unless dist/ holds the stamp of the
//                                        inputs as they are now; then takes `prepare` out of
//                                        package.json, so the packed package has none
//   node scripts/build-stamp.mjs postpack postpack: puts `prepare` back
//   node scripts/build-stamp.mjs test    pretest: the same (CI's npm ci has just built dist/ by
//                                        prepare; npm test then built it a second time)
//   node scripts/build-stamp.mjs prepare npm's `prepare`: the same. It runs after `npm ci` /
//                                        `npm install` in this checkout, in npm's clone when the
//                                        package is installed from git (no dist/ there: it
//                                        builds), and when `npx schema-sync` runs inside the
//                                        checkout (npm packs the folder to run it): a dist/ that
//                                        holds the stamp is not deleted to build the same one
//                                        again (and, stopped halfway, leave none). The packed
//                                        package has no `prepare` (prepack removes it).
//
// The hash is taken before the build reads anything, so a source edited while it runs leaves a
// stamp that no longer matches; a build stopped halfway leaves no stamp. The inputs: src/**,
// runtime/**, every tsconfig*.json, the scripts the build runs (this one included) and the fields
// of package.json that change what is built (the build script, the dependencies the bundle takes
// in and the compiler that emits it, the module type).
//
// The build runs package.json's build script through the shell, and prepack and postpack edit
// package.json here, rather than through `npm run build` and `npm pkg`: each npm started is most
// of a second of CPU, and a pack used to start three (test/e2e/install.test.ts packs twice).
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = join(root, 'dist/build-stamp.txt');
const PENDING = `${STAMP}.pending`;
const FOLDERS = ['src', 'runtime'];
const SCRIPTS = ['scripts/compile.mjs', 'scripts/bundle-cli.mjs', 'scripts/build-stamp.mjs'];
const MANIFEST_FIELDS = ['type', 'dependencies', 'devDependencies', 'optionalDependencies', 'overrides'];

/** The inputs' paths (relative, with `/`), sorted. */
function inputs() {
  const paths = readdirSync(root).filter((name) => /^tsconfig.*\.json$/.test(name));
  for (const folder of FOLDERS) {
    for (const name of readdirSync(join(root, folder), { recursive: true })) {
      if (statSync(join(root, folder, name)).isFile()) paths.push(`${folder}/${name.split(sep).join('/')}`);
    }
  }
  return [...paths, ...SCRIPTS].sort();
}

/** The hash of the inputs as they are now. */
function inputsHash() {
  const hash = createHash('sha256');
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const fields = Object.fromEntries(MANIFEST_FIELDS.map((field) => [field, manifest[field] ?? null]));
  fields.build = manifest.scripts?.build ?? null;
  hash.update(`package.json\0${JSON.stringify(fields)}\0`);
  for (const path of inputs()) {
    const bytes = readFileSync(join(root, path));
    hash.update(`${path}\0${bytes.length}\0`).update(bytes);
  }
  return `sha256:${hash.digest('hex')}\n`;
}

/** What `prepare` runs (prepack takes it out of package.json, postpack puts it back). */
const PREPARE = 'node scripts/build-stamp.mjs prepare';

/**
 * Edits package.json as `npm pkg` does: parsed, changed by `edit`, and written back with the
 * indentation and line ends it had (so that prepack and postpack leave it byte for byte as it was).
 */
function editManifest(edit) {
  const path = join(root, 'package.json');
  const text = readFileSync(path, 'utf8');
  const indent = /^\{\r?\n([ \t]+)/.exec(text)?.[1] ?? 2;
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const manifest = JSON.parse(text);
  edit(manifest);
  writeFileSync(path, JSON.stringify(manifest, null, indent).replace(/\n/g, newline) + (/\r?\n$/.test(text) ? newline : ''));
}

/** `npm run build` without npm: the build script in a shell, with the project's commands on the PATH, as npm runs it. */
function build() {
  const script = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.build;
  const PATH = [join(root, 'node_modules/.bin'), process.env.PATH].filter(Boolean).join(delimiter);
  execSync(script, { cwd: root, stdio: 'inherit', env: { ...process.env, PATH } });
}

function readOr(path, otherwise) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return otherwise;
  }
}

const command = process.argv[2];
if (command === 'begin') {
  mkdirSync(dirname(PENDING), { recursive: true });
  writeFileSync(PENDING, inputsHash());
} else if (command === 'end') {
  if (!existsSync(PENDING)) throw new Error(`${relative(root, PENDING)} is missing: run "node scripts/build-stamp.mjs begin" when the build starts`);
  renameSync(PENDING, STAMP);
} else if (command === 'pack' || command === 'test' || command === 'prepare') {
  if (readOr(STAMP, undefined) === inputsHash()) {
    const what = { pack: 'packed as it is', test: 'tested as it is', prepare: 'not rebuilt (npm run build rebuilds it)' }[command];
    console.error(`schema-sync: dist/ was built from the sources as they are (dist/build-stamp.txt); ${what}.`);
  } else {
    build();
  }
  if (command === 'pack') {
    editManifest((manifest) => {
      // postpack puts back PREPARE: a prepare script changed in package.json alone would be lost.
      if (manifest.scripts.prepare !== PREPARE) {
        console.error(`schema-sync: package.json's prepare script is not ${JSON.stringify(PREPARE)}, which postpack puts back: change PREPARE in scripts/build-stamp.mjs too.`);
        process.exit(2);
      }
      delete manifest.scripts.prepare;
    });
  }
} else if (command === 'postpack') {
  editManifest((manifest) => {
    manifest.scripts = { ...manifest.scripts, prepare: PREPARE };
  });
} else {
  console.error('usage: node scripts/build-stamp.mjs begin|end|pack|test|prepare|postpack');
  process.exit(2);
}

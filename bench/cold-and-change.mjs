#!/usr/bin/env node
// Paired, interleaved: a cold pull of 10,000 types (new output folder) and a pull that changes 100
// of them, for two builds (each a checkout with dist/ built), on each folder given, with
// openapi-typescript writing the types of the same 10,000 descriptors (an equivalent OpenAPI
// document, bench/openapi-document.mjs) and the floor writer (bench/floor-writer.mjs: the same
// 10,000 small modules from string templates) in the same rounds:
//   node bench/cold-and-change.mjs --base ../base-checkout [--head .] [--size 10000] [--runs 5] [--dir /dev/shm,/tmp]
//     [--openapi-typescript <its bin/cli.js>] [--delete-first]
// openapi-typescript is not a devDependency: its 7.x wants TypeScript 5 as a peer, and this
// project builds with TypeScript 6. Install it anywhere else (npm install openapi-typescript@7.13.0
// in a scratch folder) and name its bin/cli.js; without it the openapi-typescript column is left out.
// Each round runs every measurement once, the builds' order alternating, after one unmeasured
// round (it fills the code caches, as a user's first run does). Every cold round writes into new
// folders and nothing is deleted until all rounds are done: on this VM's ext4 disk (no journal)
// creating a file right after thousands were deleted near it costs several times what it costs
// in a fresh folder, for any writer (bench/README.md, "A cold pull on a disk right after a
// delete"). --delete-first measures the old way: each round deletes the last round's output just
// before its cold pulls. The pulls after changes then run on the last round's output: the no-op
// pull is measured after an unmeasured one (the steady no-op: the first run after a write hashes
// the files it wrote), and the pull after changes right after it. Figures are medians of the
// rounds; each ratio is the median of the per-round ratios (cold pull / openapi-typescript, cold
// pull / floor, changed pull / no-op pull, head / base), so both sides of a ratio see the same
// machine load. The machine's load average is printed with the figures. --json FILE saves them.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fsTypeOf } from './file-system.mjs';
import { openApiDocument } from './openapi-document.mjs';
import { syntheticListing } from './synthetic-listing.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const builds = { base: resolve(arg('base', '')), head: resolve(arg('head', join(here, '..'))) };
if (!arg('base', '')) throw new Error('--base <checkout with dist/ built> is required');
for (const dir of Object.values(builds)) if (!existsSync(join(dir, 'dist/cli/bin.js'))) throw new Error(`${dir}: no dist/cli/bin.js (run npm run build there)`);
const size = Number(arg('size', '10000'));
const runs = Number(arg('runs', '5'));
const folders = arg('dir', '/dev/shm,/tmp').split(',');
const OPENAPI_TS = arg('openapi-typescript', undefined);
const deleteFirst = process.argv.includes('--delete-first');

/** Wall seconds of one process. */
function timed(command, args, cwd, env = {}) {
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [command, ...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? done(Number(process.hrtime.bigint() - started) / 1e9) : fail(new Error(`${command} ${args.join(' ')} exited ${code}:\n${stderr}`))));
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const changedCount = Math.max(1, Math.round(size / 100));
const listingA = syntheticListing(size);
const listingB = syntheticListing(size, { changed: changedCount });
const { startReferenceServer } = await import(join(builds.base, 'dist/server/index.js'));
const server = await startReferenceServer({ listing: listingA });
const pull = ['pull', '--base-url', server.url, '--out', 'out'];
const results = [];
const load = { start: loadavg().map((x) => x.toFixed(1)).join(' ') };
try {
  for (const folder of folders) {
    const fsType = fsTypeOf(folder);
    const work = mkdtempSync(join(folder, 'schema-sync-cold-'));
    writeFileSync(join(work, 'openapi.json'), JSON.stringify(openApiDocument(listingA)));
    writeFileSync(join(work, 'listing.json'), JSON.stringify(listingA));
    // Round i's folders: a project folder per build (its lockfile, its output "out"), the floor
    // writer's folder and openapi-typescript's output. The code cache is each build's own, kept.
    const at = (i, name) => join(work, `round-${i}`, name);
    const cli = (i, build, args) => timed(join(builds[build], 'dist/cli/bin.js'), args, at(i, build), { SCHEMA_SYNC_CACHE_DIR: join(work, `${build}-cache`) });
    const cold = [];
    const change = [];
    try {
      for (let i = 0; i <= runs; i++) {
        const order = i % 2 === 0 ? ['base', 'head'] : ['head', 'base'];
        if (deleteFirst && i > 0) rmSync(join(work, `round-${i - 1}`), { recursive: true, force: true });
        for (const build of order) mkdirSync(at(i, build), { recursive: true });
        const round = { base: {}, head: {} };
        server.setListing(listingA);
        for (const build of order) round[build].cold = await cli(i, build, pull);
        round.floor = await timed(join(here, 'floor-writer.mjs'), ['listing.json', at(i, 'floor')], work);
        round.openapi = OPENAPI_TS === undefined ? NaN : await timed(OPENAPI_TS, ['openapi.json', '-o', at(i, 'openapi.ts')], work);
        if (i > 0) cold.push(round);
      }
      // The pulls after changes, on the last round's output: 100 files each, the same for both builds.
      for (let i = 0; i <= runs; i++) {
        const order = i % 2 === 0 ? ['base', 'head'] : ['head', 'base'];
        const round = { base: {}, head: {} };
        for (const build of order) {
          server.setListing(listingA);
          // The no-op measured is the steady one: the first run after a write hashes the files it
          // wrote (their stats are not recorded yet), as every run after a write does once.
          await cli(runs, build, pull);
          round[build].noop = await cli(runs, build, pull);
          server.setListing(listingB);
          round[build].changed = await cli(runs, build, pull);
          server.setListing(listingA);
          await cli(runs, build, pull);
        }
        if (i > 0) change.push(round);
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    const of = (pick, rounds = cold) => median(rounds.map(pick));
    for (const build of Object.keys(builds)) {
      results.push({
        folder,
        fsType,
        build,
        cold: of((r) => r[build].cold),
        noop: of((r) => r[build].noop, change),
        changed: of((r) => r[build].changed, change),
        openapi: of((r) => r.openapi),
        floor: of((r) => r.floor),
        coldToOpenapi: of((r) => r[build].cold / r.openapi),
        coldToFloor: of((r) => r[build].cold / r.floor),
        changedToNoop: of((r) => r[build].changed / r[build].noop, change),
        coldHeadToBase: of((r) => r.head.cold / r.base.cold),
      });
    }
  }
} finally {
  await server.close();
}
load.end = loadavg().map((x) => x.toFixed(1)).join(' ');
const f = (x) => x.toFixed(2);
console.log(`size ${size}, ${changedCount} changed, ${runs} rounds${deleteFirst ? ', each deleting the last round\'s output first' : ''}; base ${builds.base}, head ${builds.head}; load average (1, 5, 15 min) ${load.start} at the start, ${load.end} at the end\n`);
console.log('| folder | build | cold pull s | openapi-typescript s | cold / openapi-typescript | floor s | cold / floor | no-op pull s | pull after changes s | changed / no-op | cold head / base |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of results) {
  const folder = `${r.folder} (${r.fsType})`;
  console.log(`| ${folder} | ${r.build} | ${f(r.cold)} | ${f(r.openapi)} | ${f(r.coldToOpenapi)} | ${f(r.floor)} | ${f(r.coldToFloor)} | ${f(r.noop)} | ${f(r.changed)} | ${f(r.changedToNoop)} | ${r.build === 'head' ? f(r.coldHeadToBase) : '–'} |`);
}
const jsonOut = arg('json', undefined);
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify({ size, runs, deleteFirst, load, results }, null, 2)}\n`);

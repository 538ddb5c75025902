#!/usr/bin/env node
// Paired, interleaved comparison of two builds of schema-sync (each a checkout with dist/ built):
//   node bench/compare.mjs --base ../old-checkout [--head .] [--size 10000 | --listing examples/descriptors.json]
//     [--runs 9] [--dir /dev/shm] [--rows cold,noop,check,changed,generate,nogen]
// Every measured run of a row runs the base build and the head build back to back (which goes
// first alternates), so both see the same machine load; the row's figure is the median of the
// per-pair ratios head / base, for wall time and for CPU time (user + sys of the process).
// The machine's speed drifts from minute to minute on a shared VM, so a ratio of builds measured
// this way is steadier than comparing two bench runs. Prints a markdown table; --json FILE saves it.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { syntheticListing } from './synthetic-listing.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const builds = { base: resolve(arg('base', '')), head: resolve(arg('head', join(here, '..'))) };
if (!arg('base', '')) throw new Error('--base <checkout with dist/ built> is required');
for (const dir of Object.values(builds)) {
  if (!existsSync(join(dir, 'dist/cli/bin.js'))) throw new Error(`${dir}: no dist/cli/bin.js (run npm run build there)`);
}
const size = Number(arg('size', '10000'));
const runs = Number(arg('runs', '9'));
const rowsWanted = arg('rows', 'cold,noop,check,changed,generate').split(',');
const work = mkdtempSync(join(arg('dir', existsSync('/dev/shm') ? '/dev/shm' : '/tmp'), 'schema-sync-compare-'));
const PROBE = join(here, 'cpu-probe.mjs');

/** One process of `build`: wall seconds and CPU seconds (user + sys). */
function timed(build, args) {
  const cpuFile = join(work, `cpu-${build}`);
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--import', PROBE, join(builds[build], 'dist/cli/bin.js'), ...args], {
      cwd: join(work, build),
      env: { ...process.env, NO_COLOR: '1', SCHEMA_SYNC_BENCH_CPU: cpuFile, SCHEMA_SYNC_CACHE_DIR: join(work, build, '.cache') },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('exit', (code) => {
      const wall = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) return fail(new Error(`${build}: ${args.join(' ')} exited ${code}:\n${stderr}`));
      done({ wall, cpu: Number(readFileSync(cpuFile, 'utf8')) / 1e6 });
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const { startReferenceServer } = await import(join(builds.base, 'dist/server/index.js'));
// A listing file (the example listing's 264 types) instead of a synthetic one: its changed
// listing has another schemaHash for every hundredth type.
const listingFile = arg('listing', undefined);
const listingA = listingFile === undefined ? syntheticListing(size) : JSON.parse(readFileSync(listingFile, 'utf8'));
const changed = Math.max(1, Math.round(listingA.length / 100));
const listingB =
  listingFile === undefined
    ? syntheticListing(size, { changed })
    : listingA.map((element, i) => (i % 100 === 0 && element.message?.schemaHash !== undefined ? { ...element, message: { ...element.message, schemaHash: `${element.message.schemaHash}x` } } : element));
const server = await startReferenceServer({ listing: listingA });
const pull = ['pull', '--base-url', server.url, '--out', 'out'];
const reset = (build) => {
  rmSync(join(work, build, 'out'), { recursive: true, force: true });
  rmSync(join(work, build, 'schema-sync.lock.json'), { force: true });
};
const pullA = async (build) => {
  server.setListing(listingA);
  await timed(build, pull);
};

/** Each row: how to put a build's folder in place before a run, and what to run. */
const ROWS = {
  cold: { label: 'cold pull', prepare: async (b) => reset(b), args: pull, listing: listingA },
  noop: { label: 'no-op pull', prepare: pullA, args: pull, listing: listingA },
  check: { label: 'check', prepare: pullA, args: ['check', '--base-url', server.url, '--out', 'out'], listing: listingA },
  changed: { label: `pull after ${changed} changes`, prepare: pullA, args: pull, listing: listingB },
  nogen: { label: 'no-op generate', prepare: pullA, args: ['generate', '--out', 'out'], listing: listingA },
  generate: {
    label: 'generate (cold)',
    prepare: async (b) => {
      await pullA(b);
      rmSync(join(work, b, 'out'), { recursive: true, force: true });
    },
    args: ['generate', '--out', 'out'],
    listing: listingA,
  },
};

const table = [];
try {
  for (const build of Object.keys(builds)) mkdirSync(join(work, build), { recursive: true });
  for (const key of rowsWanted) {
    const row = ROWS[key];
    const pairs = [];
    // One unmeasured round first: it fills each build's code cache, as a user's first run does.
    for (let i = 0; i <= runs; i++) {
      const order = i % 2 === 0 ? ['base', 'head'] : ['head', 'base'];
      const sample = {};
      for (const build of order) {
        await row.prepare(build);
        server.setListing(row.listing);
        sample[build] = await timed(build, row.args);
      }
      if (i > 0) pairs.push(sample);
    }
    const done = {
      row: row.label,
      runs,
      baseWall: median(pairs.map((p) => p.base.wall)),
      headWall: median(pairs.map((p) => p.head.wall)),
      wallRatio: median(pairs.map((p) => p.head.wall / p.base.wall)),
      cpuRatio: median(pairs.map((p) => p.head.cpu / p.base.cpu)),
    };
    table.push(done);
    // Each row as it is done: a long comparison stopped early keeps what it measured.
    process.stderr.write(`${JSON.stringify(done)}\n`);
  }
} finally {
  await server.close();
  rmSync(work, { recursive: true, force: true });
}

const f = (x, d = 2) => x.toFixed(d);
console.log(`${listingFile ?? `size ${size}`} (${listingA.length} elements), ${runs} paired runs a row, base ${builds.base}, head ${builds.head}\n`);
console.log('| row | base wall (s) | head wall (s) | head/base wall | head/base CPU |');
console.log('|---|---:|---:|---:|---:|');
for (const r of table) console.log(`| ${r.row} | ${f(r.baseWall)} | ${f(r.headWall)} | ${f(r.wallRatio)} × | ${f(r.cpuRatio)} × |`);
const jsonOut = arg('json', undefined);
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(table, null, 2)}\n`);

#!/usr/bin/env node
// npm run bench: times the whole CLI process, as a user runs it, against the bundled reference
// server on loopback, for synthetic listings of 1,000 and 10,000 types. Prints a table and writes
// bench/results.json. Options: --sizes 1000,10000  --runs 5  --prettier-runs 3  --dir <work folder>
// (default: /dev/shm where there is one, else the OS temp folder; see benchDir below).
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { syntheticListing } from './synthetic-listing.mjs';
import { targetOf } from './targets.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const sizes = arg('sizes', '1000,10000').split(',').map(Number);
const runs = Number(arg('runs', '5'));
const prettierRuns = Number(arg('prettier-runs', '3'));
const BIN = join(root, 'dist/cli/bin.js');
const PROBE = join(root, 'bench/rss-probe.mjs');

/**
 * Where the measured runs write. The file system is part of every figure, and a VM's virtual
 * disk measures the disk: here the floor writer alone took 1.2 to 6 s for 10,000 files on the
 * ext4 root (0.2 s on tmpfs), varying with the write-back of the previous run's files. So by
 * default the bench writes to a RAM file system (/dev/shm, Linux) where there is one, and says
 * so; `--dir` measures any other folder, e.g. the project's own disk.
 */
function benchDir() {
  const given = arg('dir', undefined);
  if (given !== undefined) return given;
  try {
    if (statSync('/dev/shm').isDirectory()) {
      accessSync('/dev/shm', constants.W_OK);
      return '/dev/shm';
    }
  } catch {
    // No /dev/shm (macOS, Windows) or not writable: the OS temp folder.
  }
  return tmpdir();
}

const { startReferenceServer } = await import(join(root, 'dist/server/index.js'));
const workDir = benchDir();
const work = mkdtempSync(join(workDir, 'schema-sync-bench-'));
const rssFile = join(work, 'rss');
// The machine-local caches (V8 code cache, stat cache) of the measured runs; the warm-up run of
// each measurement fills the code cache, as a user's first run does.
const cacheDir = join(work, 'cache');

/** Runs one command as a child process; returns wall seconds, peak RSS (MB) and stderr. */
function timed(args, cwd) {
  return new Promise((resolveRun, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--import', PROBE, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1', SCHEMA_SYNC_BENCH_RSS: rssFile, SCHEMA_SYNC_CACHE_DIR: cacheDir },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited ${code}:\n${stderr}`));
      const rssMb = Number(readFileSync(rssFile, 'utf8')) / 1024;
      resolveRun({ seconds, rssMb, stderr });
    });
  });
}

/** Warm-up once, then `n` measured runs, each after `prepare()`. */
async function measure(label, n, prepare, args, cwd) {
  const samples = [];
  for (let i = 0; i <= n; i++) {
    await prepare();
    const sample = await timed(args, cwd);
    if (i > 0) samples.push(sample);
  }
  const secs = samples.map((s) => s.seconds).sort((a, b) => a - b);
  const written = /(\d+) files? written/.exec(samples.at(-1).stderr)?.[1];
  return {
    run: label,
    median: secs[Math.floor(secs.length / 2)],
    min: secs[0],
    max: secs.at(-1),
    peakRssMb: Math.max(...samples.map((s) => s.rssMb)),
    filesWritten: written === undefined ? null : Number(written),
  };
}

const results = [];
const server = await startReferenceServer({ listing: [] });
try {
  for (const size of sizes) {
    const changed = Math.max(1, Math.round(size / 100));
    const listingA = syntheticListing(size);
    const listingB = syntheticListing(size, { changed });
    const dir = join(work, `n${size}`);
    const listingFile = join(work, `listing-${size}.json`);
    writeFileSync(listingFile, JSON.stringify(listingA));
    mkdirSync(dir, { recursive: true });
    const pull = ['pull', '--base-url', server.url, '--out', 'out'];
    const reset = () => rmSync(join(dir, 'out'), { recursive: true, force: true }) ?? rmSync(join(dir, 'schema-sync.lock.json'), { force: true });
    const rows = [];
    server.setListing(listingA);

    rows.push(await measure('floor (string templates)', runs, () => rmSync(join(dir, 'floor'), { recursive: true, force: true }), [join(root, 'bench/floor-writer.mjs'), listingFile, 'floor'], dir));
    rows.push(await measure('cold pull', runs, reset, [BIN, ...pull], dir));
    rows.push(await measure('no-op pull', runs, () => undefined, [BIN, ...pull], dir));
    rows.push(await measure('check', runs, () => undefined, [BIN, 'check', '--base-url', server.url, '--out', 'out'], dir));
    // Before each run, an unmeasured pull of listing A puts the folder back, as the tool leaves
    // it (a copy would not: new inodes and times look like a folder touched by someone else).
    const backToA = async () => {
      server.setListing(listingA);
      await timed([BIN, ...pull], dir);
      server.setListing(listingB);
    };
    rows.push(await measure(`pull after ${changed} changes`, runs, backToA, [BIN, ...pull], dir));
    server.setListing(listingA);
    await timed([BIN, ...pull], dir);
    rows.push(await measure('generate (cold)', runs, () => rmSync(join(dir, 'out'), { recursive: true, force: true }), [BIN, 'generate', '--out', 'out'], dir));
    if (prettierRuns > 0) rows.push(await measure('cold pull --format prettier', prettierRuns, reset, [BIN, ...pull, '--format', 'prettier'], dir));

    const floor = rows[0].median;
    for (const row of rows) {
      const target = targetOf({ size, ...row });
      results.push({ size, ...row, ratioToFloor: row.median / floor, ...(target && { target: target.text, targetMet: target.met }) });
    }
  }
} finally {
  await server.close();
  rmSync(work, { recursive: true, force: true });
}

const machine = { workDir, node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(totalmem() / 2 ** 30) };
const f = (n) => n.toFixed(2);
const lines = [
  `Machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, files in ${machine.workDir}; median of ${runs} runs (prettier ${prettierRuns}) after a warm-up`,
  '',
  '| types | run | median s | min s | max s | peak RSS MB | × floor | files written | target (issue 5) |',
  '|---:|---|---:|---:|---:|---:|---:|---:|---|',
  ...results.map((r) => `| ${r.size} | ${r.run} | ${f(r.median)} | ${f(r.min)} | ${f(r.max)} | ${Math.round(r.peakRssMb)} | ${f(r.ratioToFloor)} | ${r.filesWritten ?? '–'} | ${r.target === undefined ? '–' : `${r.targetMet ? '✔' : '✘'} ${r.target}`} |`),
];
console.log(lines.join('\n'));
writeFileSync(join(root, 'bench/results.json'), `${JSON.stringify({ machine, runs, prettierRuns, results }, null, 2)}\n`);

#!/usr/bin/env node
// npm run bench: times the whole CLI process, as a user runs it, against the bundled reference
// server on loopback: first the real-size rows (the example listing's 264 types, each paired with
// a bare `node -e 0`), then synthetic listings of 1,000 and 10,000 types, once per output folder:
// a RAM file system and an ordinary disk folder (see benchFolders below). Prints one table per
// folder and writes bench/results.json. Options: --sizes 1000,10000  --runs 5  --prettier-runs 3
// --real-runs 9 ('0' leaves the real-size rows out)  --impact off  --dir <folder>[,<folder>…]
// --memory-mib 32 ('' leaves the memory row out)  --memory-shapes descs,types.
// --records-mb 20  --records-base <checkout with dist/> (the records type-check row, against
// that build). What each row measures: bench/README.md.
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fsTypeOf, isRam } from './file-system.mjs';
import { syntheticListing } from './synthetic-listing.mjs';
import { targetOf } from './targets.mjs';
import { benchImpact, impactLines } from './impact.mjs';
import { benchMemory, memoryLines } from './memory.mjs';
import { probedRun } from './probed-run.mjs';
import { benchRecords, recordsLines } from './records.mjs';
import { benchRecordsTsc, recordsTscLines } from './records-tsc.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const sizes = arg('sizes', '1000,10000').split(',').map(Number);
const runs = Number(arg('runs', '5'));
const prettierRuns = Number(arg('prettier-runs', '3'));
const BIN = join(root, 'dist/cli/bin.js');

function writableDir(path) {
  try {
    accessSync(path, constants.W_OK);
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The folders the measured runs write to. The file system is part of every figure, and a VM's
 * virtual disk measures the disk as much as schema-sync (its write-back of the previous run's
 * files makes the same run vary severalfold). So by default the bench runs twice: on a RAM file
 * system (/dev/shm, Linux) where there is one, the rows the targets are judged on, and on an
 * ordinary disk folder: the OS temp folder, or the project folder when the temp folder is in RAM
 * too. `--dir a,b` measures exactly those folders; the targets are judged on the first.
 */
function benchFolders() {
  const given = arg('dir', undefined);
  const paths = given !== undefined ? given.split(',') : [];
  if (given === undefined) {
    if (writableDir('/dev/shm') && isRam(fsTypeOf('/dev/shm'))) paths.push('/dev/shm');
    paths.push(isRam(fsTypeOf(tmpdir())) ? root : tmpdir());
  }
  return paths.map((path, i) => {
    const fsType = fsTypeOf(path);
    return { path, fsType, kind: isRam(fsType) ? 'RAM' : 'disk', judged: i === 0 };
  });
}

/** Runs one command as a child process; returns wall seconds, peak RSS (MB) and stderr. */
async function timed(args, cwd, work) {
  // The machine-local caches (V8 code cache, stat cache) of the measured runs live in the folder
  // measured; the warm-up run of each measurement fills the code cache, as a user's first run does.
  const { seconds, rssKb, stderr } = await probedRun(args, cwd, work);
  return { seconds, rssMb: rssKb / 1024, stderr };
}

/** Warm-up once, then `n` measured runs, each after `prepare()`. */
async function measure(label, n, prepare, args, cwd, work) {
  const samples = [];
  for (let i = 0; i <= n; i++) {
    await prepare();
    const sample = await timed(args, cwd, work);
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

/** Every row of one listing size, with the output folder in `work`. */
async function benchSize(server, size, work) {
  const changed = Math.max(1, Math.round(size / 100));
  const listingA = syntheticListing(size);
  const listingB = syntheticListing(size, { changed });
  const dir = join(work, `n${size}`);
  const listingFile = join(work, `listing-${size}.json`);
  writeFileSync(listingFile, JSON.stringify(listingA));
  mkdirSync(dir, { recursive: true });
  const pull = ['pull', '--base-url', server.url, '--out', 'out'];
  const run = (label, n, prepare, args) => measure(label, n, prepare, args, dir, work);
  // A cold row's last output is moved aside, not deleted, until the size's rows are done: on a
  // disk, creating files right after thousands were deleted near them costs several times a new
  // folder's, for any writer ("A cold pull on a disk right after a delete"), and the rows would
  // measure the bench's own deletes.
  const trash = join(dir, 'trash');
  mkdirSync(trash, { recursive: true });
  let moved = 0;
  const aside = (name) => {
    if (existsSync(join(dir, name))) renameSync(join(dir, name), join(trash, `${moved++}-${name}`));
  };
  const reset = () => {
    aside('out');
    aside('schema-sync.lock.json');
  };
  const rows = [];
  server.setListing(listingA);

  rows.push(await run('floor (string templates)', runs, () => aside('floor'), [join(root, 'bench/floor-writer.mjs'), listingFile, 'floor']));
  rows.push(await run('cold pull', runs, reset, [BIN, ...pull]));
  rows.push(await run('no-op pull', runs, () => undefined, [BIN, ...pull]));
  rows.push(await run('check', runs, () => undefined, [BIN, 'check', '--base-url', server.url, '--out', 'out']));
  // Before each run, an unmeasured pull of listing A puts the folder back, as the tool leaves
  // it (a copy would not: new inodes and times look like a folder touched by someone else).
  const backToA = async () => {
    server.setListing(listingA);
    await timed([BIN, ...pull], dir, work);
    server.setListing(listingB);
  };
  rows.push(await run(`pull after ${changed} changes`, runs, backToA, [BIN, ...pull]));
  server.setListing(listingA);
  await timed([BIN, ...pull], dir, work);
  rows.push(await run('generate (cold)', runs, () => aside('out'), [BIN, 'generate', '--out', 'out']));
  if (prettierRuns > 0) rows.push(await run('cold pull --prettier', prettierRuns, reset, [BIN, ...pull, '--prettier']));
  rmSync(trash, { recursive: true, force: true });
  return rows.map((row) => ({ size, ...row, ratioToFloor: row.median / rows[0].median }));
}

/**
 * The real-size rows: the example listing (264 types, examples/descriptors.json) on the first
 * folder, each measured run of a row paired with a bare `node -e 0` run (which goes first
 * alternates), so the ratio to Node's own start-up is taken under the same machine load.
 */
async function benchRealSize(server, work, n) {
  const listing = JSON.parse(readFileSync(join(root, 'examples/descriptors.json'), 'utf8'));
  const dir = join(work, 'real');
  mkdirSync(dir, { recursive: true });
  server.setListing(listing);
  const pull = [BIN, 'pull', '--base-url', server.url, '--out', 'out'];
  const reset = () => rmSync(join(dir, 'out'), { recursive: true, force: true }) ?? rmSync(join(dir, 'schema-sync.lock.json'), { force: true });
  const rowsWanted = [
    { run: 'cold pull', prepare: reset, args: pull },
    { run: 'no-op generate', prepare: () => undefined, args: [BIN, 'generate', '--out', 'out'] },
    { run: 'check', prepare: () => undefined, args: [BIN, 'check', '--base-url', server.url, '--out', 'out'] },
  ];
  const rows = [];
  for (const row of rowsWanted) {
    // The no-op rows run over the folder a pull left.
    if (row.run !== 'cold pull') {
      reset();
      await timed(pull, dir, work);
    }
    const pairs = [];
    for (let i = 0; i <= n; i++) {
      await row.prepare();
      const bare = i % 2 === 0 ? await timed(['-e', '0'], dir, work) : undefined;
      const sample = await timed(row.args, dir, work);
      const node = bare ?? (await timed(['-e', '0'], dir, work));
      if (i > 0) pairs.push({ sample, node });
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    rows.push({
      size: listing.length,
      run: row.run,
      median: median(pairs.map((p) => p.sample.seconds)),
      nodeMedian: median(pairs.map((p) => p.node.seconds)),
      ratioToNode: median(pairs.map((p) => p.sample.seconds / p.node.seconds)),
      peakRssMb: Math.max(...pairs.map((p) => p.sample.rssMb)),
    });
  }
  return rows;
}

const { startReferenceServer } = await import(join(root, 'dist/server/index.js'));
const folders = benchFolders();
const results = [];
let realSize = [];
const realRuns = Number(arg('real-runs', '9'));
const server = await startReferenceServer({ listing: [] });
try {
  if (realRuns > 0) {
    const work = mkdtempSync(join(folders[0].path, 'schema-sync-bench-'));
    try {
      realSize = await benchRealSize(server, work, realRuns);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  for (const folder of folders) {
    const work = mkdtempSync(join(folder.path, 'schema-sync-bench-'));
    try {
      for (const size of sizes) {
        for (const row of await benchSize(server, size, work)) {
          const target = folder.judged ? targetOf(row) : undefined;
          results.push({ folder: folder.path, fsType: folder.fsType, ...row, ...(target && { target: target.text, targetMet: target.met }) });
        }
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
} finally {
  await server.close();
}

// The impact row (issue 28): a consumer's type-check against two outputs, against tsc alone.
const impact = arg('impact', 'on') === 'off' ? undefined : await benchImpact({ runs });

// The records rows (issue 38): parseRecords against JSON.parse, zod and lossless-json + zod; and,
// given a base build (--records-base <checkout with dist/>), the type-check of the folder.
const records = await benchRecords({ runs: Math.max(runs, 5), mb: Number(arg('records-mb', '20')) });
const recordsBase = arg('records-base', undefined);
const recordsTsc = recordsBase === undefined ? undefined : await benchRecordsTsc({ base: recordsBase, runs });

// The memory row (issue 37): peak RSS of a cold pull of a listing at the default --max-bytes (32 MiB).
const memoryMib = arg('memory-mib', '32');
const memory = memoryMib === '' ? [] : await benchMemory({ sizesMib: memoryMib.split(',').map(Number), shapes: arg('memory-shapes', 'descs,types').split(',') });

const machine = { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(totalmem() / 2 ** 30) };
const f = (n) => n.toFixed(2);
const lines = [`Machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}; median of ${runs} runs (prettier ${prettierRuns}) after a warm-up`];
if (realSize.length > 0) {
  lines.push(
    '',
    `Real size (examples/descriptors.json, ${folders[0].path}): ${realRuns} runs a row, each paired with a bare \`node -e 0\``,
    '',
    '| types | run | median s | node -e 0 median s | × node -e 0 (median of pairs) | peak RSS MB |',
    '|---:|---|---:|---:|---:|---:|',
    ...realSize.map((r) => `| ${r.size} | ${r.run} | ${f(r.median)} | ${f(r.nodeMedian)} | ${f(r.ratioToNode)} | ${Math.round(r.peakRssMb)} |`),
  );
}
for (const folder of folders) {
  lines.push(
    '',
    `${folder.kind} (${folder.path}, ${folder.fsType})${folder.judged ? ': the targets are judged on these rows' : ''}`,
    '',
    '| types | run | median s | min s | max s | peak RSS MB | × floor | files written | target (issue 5) |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---|',
    ...results
      .filter((r) => r.folder === folder.path)
      .map((r) => `| ${r.size} | ${r.run} | ${f(r.median)} | ${f(r.min)} | ${f(r.max)} | ${Math.round(r.peakRssMb)} | ${f(r.ratioToFloor)} | ${r.filesWritten ?? '–'} | ${r.target === undefined ? '–' : `${r.targetMet ? '✔' : '✘'} ${r.target}`} |`),
  );
}
if (impact !== undefined) lines.push('', ...impactLines(impact));
lines.push('', ...recordsLines(records));
if (recordsTsc !== undefined) lines.push('', ...recordsTscLines(recordsTsc));
if (memory.length > 0) lines.push('', ...memoryLines(memory));
console.log(lines.join('\n'));
writeFileSync(join(root, 'bench/results.json'), `${JSON.stringify({ machine, runs, prettierRuns, folders, realSize, results, impact, records, recordsTsc, memory }, null, 2)}\n`);

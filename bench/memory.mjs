#!/usr/bin/env node
// The memory row (issue 37): the peak RSS of a cold `pull --input` of a listing at the default
// --max-bytes, 32 MiB (target: at most 1 GB). Two shapes of the same size: a few types with
// long descriptions (264 types, ~127 KB each), and many small types (~1 KB each). Each listing
// is written to a file once (deterministic), each pull is its own process with the rss probe
// (bench/rss-probe.mjs) preloaded. `npm run bench` runs it too.
//   npm run build && node bench/memory.mjs [--memory-mib 32] [--memory-shapes descs,types]
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { probedRun } from './probed-run.mjs';
import { syntheticListing } from './synthetic-listing.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(root, 'dist/cli/bin.js');
const MB = 1e6;
const MIB = 1024 * 1024;
/** The target: peak RSS of a pull at the default --max-bytes. */
const TARGET_BYTES = 1e9;

/** The listing shapes, each a function writing elements of about `bytes` in all through `write`. */
const SHAPES = {
  // 264 types (the example listing's count), each with one long description.
  descs(bytes, write) {
    const elements = syntheticListing(264);
    const each = Math.floor(bytes / elements.length) - 400;
    elements.forEach((element, i) => {
      element.message.desc = `Type ${i}: ${'a field described at length, '.repeat(Math.ceil(each / 29))}`.slice(0, each);
      write(element);
    });
  },
  // Many types of about 1 KB each (a 650-byte description).
  types(bytes, write) {
    const count = Math.floor(bytes / 1000);
    const elements = syntheticListing(count);
    for (const element of elements) {
      element.message.desc = `${element.message.name}: ${'field description text '.repeat(27)}`;
      write(element);
    }
  },
};

/** Writes the listing of `shape` of about `bytes` (at most) to `file`; gives its size in bytes. */
function writeListing(file, shape, bytes) {
  const fd = openSync(file, 'w');
  let first = true;
  writeSync(fd, '[');
  SHAPES[shape](bytes, (element) => {
    writeSync(fd, `${first ? '' : ','}${JSON.stringify(element)}`);
    first = false;
  });
  writeSync(fd, ']');
  closeSync(fd);
  return statSync(file).size;
}

/** One cold pull of `listing` into a fresh folder of `work`: its peak RSS in bytes, and its wall time. */
async function coldPull(listing, work) {
  const cwd = mkdtempSync(join(work, 'pull-'));
  try {
    const { seconds, rssKb } = await probedRun([BIN, 'pull', '--input', listing, '--out', 'out'], cwd, work);
    return { peakRss: rssKb * 1024, seconds };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** The memory rows: for each shape and size, the peak RSS of a cold pull (the largest of `runs`) against the bytes read. */
export async function benchMemory({ sizesMib = [32], shapes = ['descs', 'types'], runs = 1 } = {}) {
  const work = mkdtempSync(join(tmpdir(), 'schema-sync-memory-'));
  const rows = [];
  try {
    for (const shape of shapes) {
      for (const mib of sizesMib) {
        const listing = join(work, `${shape}-${mib}.json`);
        // A little under the size: the pull must stay within --max-bytes.
        const bytesRead = writeListing(listing, shape, mib * MIB - 64 * 1024);
        const samples = [];
        for (let i = 0; i < runs; i++) samples.push(await coldPull(listing, work));
        rmSync(listing);
        const peakRss = Math.max(...samples.map((s) => s.peakRss));
        const types = shape === 'descs' ? 264 : Math.floor((mib * MIB - 64 * 1024) / 1000);
        rows.push({ shape, types, bytesRead, peakRss, ratio: peakRss / bytesRead, seconds: Math.min(...samples.map((s) => s.seconds)), targetMet: peakRss <= TARGET_BYTES });
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return rows;
}

/** The rows as a markdown table. */
export function memoryLines(rows) {
  const mb = (n) => (n / MB).toFixed(0);
  return [
    'Memory: peak RSS of a cold `pull --input` of a listing at the default --max-bytes (issue 37: at most 1 GB)',
    '',
    '| shape | types | MB read | peak RSS MB | × bytes read | s | target ≤ 1 GB |',
    '|---|---:|---:|---:|---:|---:|---|',
    ...rows.map((r) => `| ${r.shape === 'descs' ? 'long descriptions' : 'many types'} | ${r.types} | ${mb(r.bytesRead)} | ${mb(r.peakRss)} | ${r.ratio.toFixed(2)} | ${r.seconds.toFixed(1)} | ${r.targetMet ? '✔' : '✘'} |`),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const rows = await benchMemory({ sizesMib: arg('memory-mib', '32').split(',').map(Number), shapes: arg('memory-shapes', 'descs,types').split(','), runs: Number(arg('memory-runs', '1')) });
  console.log(memoryLines(rows).join('\n'));
}

// What the hardening tests and scripts/adversarial.mjs share (plain JavaScript, so the script
// runs under plain node; types in folder-states.d.mts): synthetic listings, a seeded random
// source, byte-exact folder snapshots and their comparison, which known state a folder is in
// (on disk, or as the next command sees it), and CLI children that can be signalled.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built CLI, as a user runs it. */
export const BIN = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));

/** A seeded PRNG (mulberry32, the benchmark's): print the seed, and a failing run can be replayed. */
export { random as seededRandom } from '../../bench/synthetic-listing.mjs';

/** A 16-hex-digit schema hash, different for each (index, version). */
export function hashOf(index, version) {
  const a = (Math.imul(index + 1, 2654435761) ^ Math.imul(version + 7, 40503)) >>> 0;
  const b = (Math.imul(a ^ 0x9e3779b9, 2246822519) + version) >>> 0;
  return (a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0')).toUpperCase();
}

const TOKENS = ['Trading', 'ClientRisk', 'Brand', 'SRATS', 'Market'];
const ACTIONS = ['SIURD', 'S', 'SIU', 'SD', ''];

/** One synthetic wire element: type number `index`, schema version `version`. */
export function syntheticElement(index, version = 0, extra = {}) {
  return {
    header: { msgType: 'MsgDesc' },
    message: {
      name: `Type${String(index).padStart(5, '0')}`,
      mNum: 1000 + index,
      schemaHash: hashOf(index, version),
      actions: ACTIONS[index % ACTIONS.length],
      hasTKey: index % 2 === 0 ? 'Yes' : 'No',
      hasEKey: index % 3 === 0 ? 'Yes' : 'No',
      hasOKey: 'No',
      hasCF: index % 7 === 0 ? 'Yes' : 'No',
      mToken: TOKENS[index % TOKENS.length],
      staticFilterFields: index % 4 === 0 ? '' : 'accnt,ticker',
      desc: `Synthetic type ${index}, schema version ${version}.`,
      topic: `topic${index % 13}`,
      ...extra,
    },
  };
}

/** `count` synthetic types, numbered 0 … count-1, all at version 0. */
export function syntheticListing(count) {
  return Array.from({ length: count }, (_, i) => syntheticElement(i));
}

/**
 * The listing a pull moves `syntheticListing(count)` to: a tenth of the schema hashes changed,
 * one type in a hundred removed, and a hundredth as many new types added; the rest as they were.
 */
export function movedListing(count) {
  const moved = [];
  for (let i = 0; i < count; i++) {
    if (i % 100 === 55) continue;
    moved.push(syntheticElement(i, i % 10 === 3 ? 1 : 0));
  }
  for (let j = 0; j < Math.max(1, count / 100); j++) moved.push(syntheticElement(count + j));
  return moved;
}

/**
 * A temporary folder on a RAM file system when there is a roomy one (/dev/shm with 1 GB free),
 * else in the system temp folder: the kill runs write tens of thousands of small files, and what
 * they test is the order of operations, not the disk.
 */
export async function roomyTempDir(prefix) {
  const shm = '/dev/shm';
  const free = await statfs(shm).then((s) => s.bavail * s.bsize, () => 0);
  const base = free >= 1024 ** 3 ? shm : tmpdir();
  return mkdtemp(join(base, prefix)).catch(() => mkdtemp(join(tmpdir(), prefix)));
}

/**
 * Every file below `dir` as relative posix path → contents, sorted by path; empty when `dir` does
 * not exist, and a file removed while the tree is read is left out. Read synchronously: read one
 * by one through the thread pool, 10,000 files take several times as long, and no caller needs
 * its event loop while it takes a snapshot.
 */
export async function readTree(dir) {
  const paths = [];
  const walk = (relativeDir) => {
    let entries;
    try {
      entries = readdirSync(join(dir, relativeDir), { withFileTypes: true });
    } catch (error) {
      if (error.code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const path = relativeDir === '' ? entry.name : `${relativeDir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else paths.push(path);
    }
  };
  walk('');
  const out = new Map();
  for (const path of paths.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    try {
      out.set(path, readFileSync(join(dir, path), 'utf8'));
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
    }
  }
  return out;
}

/**
 * The first difference between two folder snapshots, or undefined when byte-identical. (A plain
 * deep-equal on 10,000 files would print a diff nobody can read.)
 */
export function treeDifference(actual, expected) {
  for (const [path, text] of expected) {
    const got = actual.get(path);
    if (got === undefined) return `missing ${path}`;
    if (got !== text) return `different ${path}`;
  }
  for (const path of actual.keys()) if (!expected.has(path)) return `extra ${path}`;
  return undefined;
}

/**
 * Which known state the files on disk are in, byte for byte (the lockfile and the output folder,
 * nothing more or less), or undefined for a mix. What git, tsc and editors see. Entries of the
 * output folder named in `ignore` (e.g. the transaction folder and the run lock) are left out.
 */
export async function stateOnDisk(outDir, lockfilePath, states, ignore = []) {
  let lockfile;
  try {
    lockfile = readFileSync(lockfilePath, 'utf8');
  } catch {
    return undefined;
  }
  const tree = await readTree(outDir);
  for (const path of [...tree.keys()]) if (ignore.includes(path.split('/')[0])) tree.delete(path);
  return states.find((state) => state.lockfile === lockfile && treeDifference(tree, state.tree) === undefined);
}

/**
 * Which known state the next schema-sync command sees, reading only (as `check` does): the
 * lockfile and every file either state has, through `openFolderView` (src/write or dist/write),
 * which honours a pending journal. Throws when it is none of them (a mix).
 */
export async function visibleState(openFolderView, outDir, lockfilePath, states) {
  const view = await openFolderView(outDir);
  const lockfile = await view.readLockfile(lockfilePath);
  const state = states.find((s) => s.lockfile === lockfile);
  if (!state) throw new Error(`the lockfile is none of ${states.map((s) => s.name).join(', ')}`);
  const paths = [...new Set(states.flatMap((s) => [...s.tree.keys()]))];
  const problems = [];
  for (let i = 0; i < paths.length; i += 256) {
    await Promise.all(
      paths.slice(i, i + 256).map(async (path) => {
        const bytes = await view.read(path);
        const expected = state.tree.get(path);
        if (expected === undefined ? bytes !== undefined : bytes?.toString('utf8') !== expected) problems.push(path);
      }),
    );
  }
  if (problems.length > 0) {
    throw new Error(`the lockfile is ${state.name}'s but ${problems.length} files are not, e.g. ${problems.sort().slice(0, 3).join(', ')}`);
  }
  return state;
}

/**
 * Starts the built CLI in a clean environment without colour, as a child the caller can signal;
 * `nodeArgs` go to node before the CLI (e.g. a preload). `asUser` runs it as another user through
 * `runuser` (permission cases, where the caller runs as root); the child is then `runuser`, which
 * passes a signal on.
 */
export function startCli(args, options) {
  // The test run's cache folder (test/helpers/cache-folder.ts), as runBin passes it: without it the
  // CLI kept its records and code cache in the per-user folder of the OS temp folder, which every
  // run of the suite added to. Another user cannot write it.
  const cacheDir = process.env['SCHEMA_SYNC_CACHE_DIR'];
  const cache = options.asUser === undefined && cacheDir !== undefined ? { SCHEMA_SYNC_CACHE_DIR: cacheDir } : {};
  const env = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', NO_COLOR: '1', ...cache, ...options.env };
  const node = [process.execPath, ...(options.nodeArgs ?? []), BIN, ...args];
  const command = options.asUser === undefined ? node : ['runuser', '-u', options.asUser, '--', ...node];
  const child = spawn(command[0], command.slice(1), { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d.toString()));
  child.stderr.on('data', (d) => (stderr += d.toString()));
  const done = new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, exitedAt: Date.now() }));
  });
  return { child, startedAt: Date.now(), done };
}

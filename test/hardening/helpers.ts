/**
 * Helpers of the hardening tests: synthetic listings, a seeded random source, byte-exact folder
 * comparison, a read-only look at the folder "as the next command sees it", and child processes
 * of the built CLI that the test can kill.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFolderView } from '../../src/write/folder-view.js';
import { BIN } from '../helpers/cli.js';
import type { WireElement } from '../helpers/listing.js';

export { seededRandom } from '../helpers/random.js';

/** A 16-hex-digit schema hash, different for each (index, version). */
export function hashOf(index: number, version: number): string {
  const a = (Math.imul(index + 1, 2654435761) ^ Math.imul(version + 7, 40503)) >>> 0;
  const b = (Math.imul(a ^ 0x9e3779b9, 2246822519) + version) >>> 0;
  return (a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0')).toUpperCase();
}

const TOKENS = ['Trading', 'ClientRisk', 'Brand', 'SRATS', 'Market'];
const ACTIONS = ['SIURD', 'S', 'SIU', 'SD', ''];

/** One synthetic wire element: type number `index`, schema version `version`. */
export function syntheticElement(index: number, version = 0, extra: Record<string, unknown> = {}): WireElement {
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
export function syntheticListing(count: number): WireElement[] {
  return Array.from({ length: count }, (_, i) => syntheticElement(i));
}

/**
 * A temporary folder on a RAM file system when there is a roomy one (/dev/shm with 1 GB free),
 * else in the system temp folder: the kill test writes tens of thousands of small files, and
 * what it tests is the order of operations, not the disk.
 */
export async function roomyTempDir(prefix: string): Promise<string> {
  const shm = '/dev/shm';
  const free = await statfs(shm).then((s) => s.bavail * s.bsize, () => 0);
  const base = free >= 1024 ** 3 ? shm : tmpdir();
  return mkdtemp(join(base, prefix)).catch(() => mkdtemp(join(tmpdir(), prefix)));
}

/**
 * The first difference between two folder snapshots, or undefined when byte-identical. (A plain
 * `toEqual` on 10,000 files would print a diff nobody can read.)
 */
export function treeDifference(actual: ReadonlyMap<string, string>, expected: ReadonlyMap<string, string>): string | undefined {
  for (const [path, text] of expected) {
    const got = actual.get(path);
    if (got === undefined) return `missing ${path}`;
    if (got !== text) return `different ${path}`;
  }
  for (const path of actual.keys()) if (!expected.has(path)) return `extra ${path}`;
  return undefined;
}

/** A known state of the output folder and lockfile. */
export interface FolderState {
  name: string;
  tree: ReadonlyMap<string, string>;
  lockfile: string;
}

/**
 * Which known state the next schema-sync command sees, reading only (as `check` does): the
 * lockfile and every file either state has, through the folder view that honours a pending
 * journal. Throws when it is none of them (a mix).
 */
export async function visibleState(outDir: string, lockfilePath: string, states: readonly FolderState[]): Promise<FolderState> {
  const view = await openFolderView(outDir);
  const lockfile = await view.readLockfile(lockfilePath);
  const state = states.find((s) => s.lockfile === lockfile);
  if (!state) throw new Error(`the lockfile is none of ${states.map((s) => s.name).join(', ')}`);
  const paths = [...new Set(states.flatMap((s) => [...s.tree.keys()]))];
  const problems: string[] = [];
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

/** A running CLI child the test can signal. */
export interface CliChild {
  child: ChildProcess;
  startedAt: number;
  /** Resolves when it exits: code or signal, stderr, and when. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; exitedAt: number }>;
}

/** Starts the built CLI; the environment is a clean one without colour. */
export function startCli(args: string[], options: { cwd: string; env?: Record<string, string> }): CliChild {
  const env = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', NO_COLOR: '1', ...options.env };
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<Awaited<CliChild['done']>>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, exitedAt: Date.now() }));
  });
  return { child, startedAt: Date.now(), done };
}

/** Every text a run could leak a secret into, labelled for the failure message. */
export function leaks(secrets: readonly string[], texts: Iterable<readonly [string, string]>): string[] {
  const found: string[] = [];
  for (const [label, text] of texts) {
    for (const secret of secrets) {
      for (const form of new Set([secret, encodeURIComponent(secret)])) if (text.includes(form)) found.push(`${label} contains ${secret}`);
    }
  }
  return found;
}

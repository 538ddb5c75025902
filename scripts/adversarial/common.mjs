// What the parts of the adversarial pass share: the options, CLI runs that are tallied (every
// INTERNAL error of the pass is counted from here), byte-exact fingerprints of folders (to tell
// whether anything outside an output folder changed), and small waits.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chown, lstat, readdir, readFile, readlink, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCli } from '../../dist/cli/main.js';
import { BIN, startCli } from '../../test/helpers/folder-states.mjs';

/** Every part, in the order they run. */
export const PARTS = ['kills', 'pairs', 'rss', 'planted', 'secrets', 'budgets', 'hostile', 'shared'];

/** The command line's options, with their defaults. */
export function readOptions(argv) {
  const number = (name, fallback) => {
    const i = argv.indexOf(`--${name}`);
    return i > 0 ? Number(argv[i + 1]) : fallback;
  };
  const partsAt = argv.indexOf('--parts');
  const parts = partsAt > 0 ? argv[partsAt + 1].split(',') : PARTS.filter((part) => part !== 'rss' || !argv.includes('--no-rss'));
  const unknown = parts.filter((part) => !PARTS.includes(part));
  if (unknown.length > 0) throw new Error(`unknown part ${unknown.join(', ')}; the parts are ${PARTS.join(', ')}`);
  return {
    kills: number('kills', 40),
    pairs: number('pairs', 20),
    types: number('types', 10_000),
    seed: number('seed', 20_250_613),
    parts,
    verbose: argv.includes('--verbose'),
  };
}

/** An error line's code (`error [WRITE]: …` → WRITE), or '' when the run printed none. */
export function errorCode(stderr) {
  return /error \[([A-Z_]+)\]/.exec(stderr)?.[1] ?? '';
}

const INTERNAL = /\[INTERNAL\]|this is a bug in schema-sync/;

/**
 * The pass's CLI runs: each is started through here, so that every INTERNAL error ("a bug in
 * schema-sync") of every part is counted and named (part, case, command, first error line).
 */
export function createTally() {
  const internal = [];
  let runs = 0;
  /**
   * Starts the built CLI (see startCli) as `label`; `killAfterMs` ends a run that outlives it
   * with SIGKILL (a spin, a wait that ignores its budget), which its result then shows as
   * `timedOut`.
   */
  const start = (label, args, options) => {
    runs++;
    const child = startCli(args, options);
    let timedOut = false;
    const timer = options.killAfterMs === undefined ? undefined : setTimeout(() => {
      timedOut = true;
      child.child.kill('SIGKILL');
    }, options.killAfterMs);
    const done = child.done.then((result) => {
      clearTimeout(timer);
      if (INTERNAL.test(result.stderr)) internal.push(`${label}: ${result.stderr.split('\n').find((line) => INTERNAL.test(line))}`);
      return { ...result, timedOut };
    });
    return { ...child, done };
  };
  return {
    start,
    /**
     * Runs the CLI in this process (`runCli` of dist/cli/main.js, streams captured), as the
     * tests' runCli does: the same parsing, library, reports and error text as the built CLI,
     * without a process start, for parts that run it hundreds of times. `env` is all it sees.
     */
    async inProcess(label, args, { cwd, env }) {
      runs++;
      const [stdout, stderr] = [capture(), capture()];
      const stdin = new PassThrough();
      stdin.end('');
      const code = await runCli(args, { stdout, stderr, stdin, env: { NO_COLOR: '1', ...env }, cwd, untilStopped: () => Promise.resolve() });
      const result = { code, stdout: stdout.text, stderr: stderr.text };
      if (INTERNAL.test(result.stderr)) internal.push(`${label}: ${result.stderr.split('\n').find((line) => INTERNAL.test(line))}`);
      return result;
    },
    /** Runs the CLI to its end; throws unless it exits with one of `codes`. */
    async run(label, args, options, codes = [0]) {
      const result = await start(label, args, options).done;
      if (!codes.includes(result.code)) throw new Error(`${label}: schema-sync ${args.join(' ')} exited ${result.code ?? result.signal}: ${result.stderr}`);
      return result;
    },
    get runs() {
      return runs;
    },
    internal,
  };
}

/** A stream that keeps what is written to it, as `text`. */
function capture() {
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      stream.text += chunk.toString();
      callback();
    },
  });
  return Object.assign(stream, { text: '', isTTY: false, columns: 100 });
}

/**
 * Whether the built CLI can run as `nobody` (this runs as root, `runuser` works, and nobody can
 * read the CLI where it stands), or why not.
 */
export function nobodyCanRun() {
  if (process.getuid?.() !== 0) return { ok: false, reason: 'not running as root, so no other user can be played' };
  if (spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, '-e', '0']).status !== 0) return { ok: false, reason: 'runuser -u nobody does not work here' };
  if (spawnSync('runuser', ['-u', 'nobody', '--', 'test', '-r', BIN]).status !== 0) return { ok: false, reason: `nobody cannot read ${BIN}` };
  return { ok: true, reason: '' };
}

/** Gives `path` and everything below it (not following symbolic links) to `uid`. */
export async function chownTree(path, uid) {
  const stat = await lstat(path);
  if (stat.isSymbolicLink()) return;
  await chown(path, uid, uid);
  if (stat.isDirectory()) for (const name of await readdir(path)) await chownTree(join(path, name), uid);
}

/**
 * Every entry below `dir` (not following symbolic links) as relative path → a hash of its kind,
 * mode, owner and bytes (a link: its target); unreadable entries as such. Two fingerprints that
 * differ name what changed.
 */
export async function fingerprint(dir) {
  const out = new Map();
  const walk = async (relative) => {
    const path = relative === '' ? dir : join(dir, relative);
    let stat;
    try {
      stat = await lstat(path);
    } catch (error) {
      if (error.code === 'ENOENT') return;
      throw error;
    }
    const head = `${stat.mode.toString(8)} ${stat.uid}`;
    if (stat.isSymbolicLink()) out.set(relative, `${head} -> ${await readlink(path)}`);
    else if (stat.isDirectory()) {
      out.set(relative, `${head} dir`);
      for (const name of (await readdir(path)).sort()) await walk(relative === '' ? name : `${relative}/${name}`);
    } else {
      const bytes = await readFile(path).catch((error) => `unreadable ${error.code}`);
      out.set(relative, `${head} ${createHash('sha256').update(bytes).digest('hex')}`);
    }
  };
  await walk('');
  return out;
}

/**
 * Sets the access time of every file and folder below each of `dirs` (not following symbolic
 * links) an hour before its modification time, so that on a `relatime` file system (the default)
 * the next read or listing of it moves its access time: what {@link readSince} finds. Gives the
 * access times set, by path.
 */
export async function watchReads(dirs) {
  const armed = new Map();
  const walk = async (path) => {
    const stat = await lstat(path).catch(() => undefined);
    if (stat === undefined || stat.isSymbolicLink()) return;
    // A folder is listed before its access time is set: the listing would move it.
    if (stat.isDirectory()) for (const name of await readdir(path)) await walk(join(path, name));
    await utimes(path, new Date(stat.mtimeMs - 3_600_000), stat.mtime);
    armed.set(path, (await lstat(path)).atimeMs);
  };
  for (const dir of dirs) await walk(dir);
  return armed;
}

/** The paths of `armed` ({@link watchReads}) read or listed since, by their access time. */
export async function readSince(armed) {
  const read = [];
  for (const [path, atimeMs] of armed) {
    const stat = await lstat(path).catch(() => undefined);
    if (stat !== undefined && stat.atimeMs !== atimeMs) read.push(path);
  }
  return read.sort();
}

/** The paths whose fingerprint differs between `before` and `after` (added, removed or changed). */
export function changedPaths(before, after) {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((path) => before.get(path) !== after.get(path)).sort();
}

/** Waits until `condition()` holds, or `timeoutMs` passed. */
export async function until(condition, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await sleep(1);
}

/** Runs `tasks` (functions returning promises), `width` at a time; resolves to their results in order. */
export async function inParallel(tasks, width) {
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, worker));
  return results;
}

import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BIN } from './folder-states.mjs';

/** The built CLI, as a user runs it (npm test builds first). */
export { BIN };
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What a CLI run printed and returned. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The preload that reports a child's peak RSS (see {@link runBin}'s `rssFile`): the benchmark's own. */
const RSS_PROBE = fileURLToPath(new URL('../../bench/rss-probe.mjs', import.meta.url));

/**
 * Runs the built CLI in a child process; env is added to a clean copy without colour. `asUser`
 * runs it as another user through `runuser` (permission tests, where the tests run as root).
 * With `rssFile`, the child writes its peak resident set size (KiB) there as it exits.
 */
export function runBin(args: string[], options: { cwd: string; env?: Record<string, string | undefined>; input?: string; timeoutMs?: number; asUser?: string; rssFile?: string }): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    // Another user cannot write the run's cache folder (test/helpers/cache-folder.ts).
    const cache = options.asUser === undefined ? runCacheEnv() : {};
    const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'], HOME: process.env['HOME'], NO_COLOR: '1', ...cache, ...options.env };
    if (options.rssFile !== undefined) env['SCHEMA_SYNC_BENCH_RSS'] = options.rssFile;
    for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
    const bin = options.asUser === undefined ? BIN : binForOtherUser();
    const node = options.rssFile === undefined ? [process.execPath, bin] : [process.execPath, '--import', pathToFileURL(RSS_PROBE).href, bin];
    const command = options.asUser === undefined ? [...node, ...args] : ['runuser', '-u', options.asUser, '--', ...node, ...args];
    const child = spawn(command[0]!, command.slice(1), { cwd: options.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Runs any command in a child process with a clean environment (PATH, HOME and the test run's cache folder). */
export function runCommand(command: string, args: string[], cwd: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { PATH: process.env['PATH'], HOME: process.env['HOME'], ...runCacheEnv() } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/**
 * The CLI another user runs: the checkout's own, or where the checkout is in a folder that user
 * cannot enter, the readable copy test/helpers/other-user-install.ts made.
 */
function binForOtherUser(): string {
  const copy = process.env['SCHEMA_SYNC_TEST_OTHER_USER_ROOT'];
  return copy === undefined ? BIN : join(copy, 'dist/cli/bin.js');
}

/** The test run's cache folder (test/helpers/cache-folder.ts) for a CLI's environment, unless a test names its own. */
export function runCacheEnv(): { SCHEMA_SYNC_CACHE_DIR?: string } {
  const dir = process.env['SCHEMA_SYNC_CACHE_DIR'];
  return dir === undefined ? {} : { SCHEMA_SYNC_CACHE_DIR: dir };
}

/** A fresh temporary folder; remove it with {@link removeDir}. */
export function tempDir(prefix = 'schema-sync-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export function removeDir(dir: string): Promise<void> {
  return rm(dir, { recursive: true, force: true });
}

export { readTree } from './folder-states.mjs';

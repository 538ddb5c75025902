import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { startProgress } from '../../src/cli/progress.js';
import { startReferenceServer, type ReferenceServer } from '../../src/server/index.js';
import { removeDir, tempDir } from '../helpers/cli.js';
import { smallListing } from '../helpers/listing.js';
import { Capture, runInProcess } from './fake-io.js';

const CLEAR = '\r\u001b[2K';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function fakeIo(tty: boolean, env: NodeJS.ProcessEnv = {}): CliIo & { stdout: Capture; stderr: Capture } {
  return { stdout: new Capture(tty), stderr: new Capture(tty), stdin: process.stdin, env, cwd: process.cwd() };
}

describe('startProgress', () => {
  it('shows nothing for a run shorter than the delay', async () => {
    const io = fakeIo(true);
    const progress = startProgress(io, { label: 'schema-sync pull', delayMs: 200, intervalMs: 10 });
    await sleep(20);
    progress.stop();
    await sleep(250);
    expect(io.stderr.text).toBe('');
  });

  it('after the delay, draws one line in place on a TTY and clears it at the end', async () => {
    const io = fakeIo(true);
    const progress = startProgress(io, { label: 'schema-sync pull', delayMs: 10, intervalMs: 10 });
    progress.stage('fetching');
    await sleep(60);
    progress.stop();
    const text = io.stderr.text;
    expect(text).toMatch(/^\r\u001b\[2K. schema-sync pull: fetching … \d+\.\d s/);
    expect(text.endsWith(CLEAR)).toBe(true);
    expect(text).not.toContain('\n');
    const after = text.length;
    await sleep(40);
    expect(io.stderr.text.length).toBe(after); // stopped means stopped
  });

  it('clears the line before anything else is printed through its io, on stdout and stderr', async () => {
    const io = fakeIo(true);
    const progress = startProgress(io, { label: 'x', delayMs: 0, intervalMs: 1000 });
    await sleep(20);
    progress.io.stderr.write('a log line\n');
    progress.io.stdout.write('report\n');
    progress.stop();
    expect(io.stderr.text).toMatch(/x … \d\.\d s\r\u001b\[2Ka log line\n$/);
    expect(io.stdout.text).toBe('report\n');
  });

  it('is harmless when stderr is not a TTY, when disabled, and with TERM=dumb', async () => {
    for (const [io, enabled] of [
      [fakeIo(false), true],
      [fakeIo(true), false],
      [fakeIo(true, { TERM: 'dumb' }), true],
    ] as const) {
      const progress = startProgress(io, { label: 'x', delayMs: 0, intervalMs: 5, enabled });
      expect(progress.io).toBe(io);
      await sleep(20);
      progress.stop();
      progress.stop();
      expect(io.stderr.text).toBe('');
    }
  });
});

describe('progress in the CLI', () => {
  let server: ReferenceServer;
  let dir: string;
  beforeAll(async () => {
    server = await startReferenceServer({ listing: smallListing(2) });
    dir = await tempDir();
  });
  afterAll(async () => {
    await server.close();
    await removeDir(dir);
  });

  it('a pull slower than a second shows a progress line on a terminal, and cleans it up', async () => {
    server.queueFaults({ kind: 'delay', ms: 1300 });
    const run = await runInProcess(['pull', '--base-url', server.url], { cwd: dir, env: { NO_COLOR: '1' }, tty: true });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/schema-sync pull: fetching … 1\.\d s/);
    // The summary line starts on a cleared line and the output ends clean.
    expect(run.stderr).toMatch(/\r\u001b\[2K2 types · 2 added · \d+ files written in \d\.\d s\n$/);
  });

  it('never when stderr is not a terminal', async () => {
    server.queueFaults({ kind: 'delay', ms: 1100 });
    const piped = await runInProcess(['check', '--base-url', server.url], { cwd: dir, env: {}, tty: false });
    expect(piped.code).toBe(0);
    expect(piped.stderr).not.toContain('\r');
  });
});

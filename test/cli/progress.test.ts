import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { startProgress } from '../../src/cli/progress.js';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { removeDir, tempDir } from '../helpers/cli.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { smallListing } from '../helpers/listing.js';
import { Capture, runInProcess } from './fake-io.js';

const CLEAR = '\r\u001b[2K';

function fakeIo(tty: boolean, env: NodeJS.ProcessEnv = {}): CliIo & { stdout: Capture; stderr: Capture } {
  return { stdout: new Capture(tty), stderr: new Capture(tty), stdin: process.stdin, env, cwd: process.cwd() };
}

describe('startProgress', () => {
  it('shows nothing for a run shorter than the delay', () => {
    const io = fakeIo(true);
    const clock = new FakeClock();
    const progress = startProgress(io, { label: 'schema-sync pull', delayMs: 200, intervalMs: 10, clock });
    clock.advance(199);
    progress.stop();
    expect(clock.pending).toBe(0);
    clock.advance(250);
    expect(io.stderr.text).toBe('');
  });

  it('after the delay, draws one line in place on a TTY and clears it at the end', () => {
    const io = fakeIo(true);
    const clock = new FakeClock();
    const progress = startProgress(io, { label: 'schema-sync pull', delayMs: 10, intervalMs: 10, clock });
    progress.stage('fetching');
    clock.advance(60);
    progress.stop();
    const text = io.stderr.text;
    expect(text).toMatch(/^\r\u001b\[2K. schema-sync pull: fetching … \d+\.\d s/);
    // Drawn at 10, 20, … 60 ms, each frame over the last, then cleared.
    expect(text.split(CLEAR).slice(1, -1)).toHaveLength(6);
    expect(text.endsWith(CLEAR)).toBe(true);
    expect(text).not.toContain('\n');
    const after = text.length;
    clock.advance(40);
    expect(io.stderr.text.length).toBe(after); // stopped means stopped
    expect(clock.pending).toBe(0);
  });

  it('shows the time since the start and the stage now, redrawn every interval', () => {
    const io = fakeIo(true);
    const clock = new FakeClock();
    clock.advance(5_000); // the clock's origin is not the run's start
    const progress = startProgress(io, { label: 'schema-sync pull', clock });
    progress.stage('fetching');
    clock.advance(1_000);
    expect(io.stderr.text).toBe(`${CLEAR}⠋ schema-sync pull: fetching … 1.0 s`);
    clock.advance(99);
    expect(io.stderr.text).toBe(`${CLEAR}⠋ schema-sync pull: fetching … 1.0 s`);
    progress.stage('writing');
    clock.advance(1);
    expect(io.stderr.text).toBe(`${CLEAR}⠋ schema-sync pull: fetching … 1.0 s${CLEAR}⠙ schema-sync pull: writing … 1.1 s`);
    clock.advance(1_200);
    expect(io.stderr.text.endsWith(`${CLEAR}⠸ schema-sync pull: writing … 2.3 s`)).toBe(true);
    progress.stop();
  });

  it('clears the line before anything else is printed through its io, on stdout and stderr', () => {
    const io = fakeIo(true);
    const clock = new FakeClock();
    const progress = startProgress(io, { label: 'x', delayMs: 0, intervalMs: 1000, clock });
    clock.advance(20);
    progress.io.stderr.write('a log line\n');
    progress.io.stdout.write('report\n');
    progress.stop();
    expect(io.stderr.text).toMatch(/x … \d\.\d s\r\u001b\[2Ka log line\n$/);
    expect(io.stdout.text).toBe('report\n');
  });

  it('is harmless when stderr is not a TTY, when disabled, and with TERM=dumb', () => {
    for (const [io, enabled] of [
      [fakeIo(false), true],
      [fakeIo(true), false],
      [fakeIo(true, { TERM: 'dumb' }), true],
    ] as const) {
      const clock = new FakeClock();
      const progress = startProgress(io, { label: 'x', delayMs: 0, intervalMs: 5, enabled, clock });
      expect(progress.io).toBe(io);
      expect(clock.pending).toBe(0);
      clock.advance(20);
      progress.stop();
      progress.stop();
      expect(io.stderr.text).toBe('');
    }
  });
});

/**
 * A server in front of the reference server that holds every request until the test lets it
 * through: the CLI is then "fetching" for exactly as long as the test says.
 */
interface Gate {
  url: string;
  /** Resolves when a request is waiting. */
  arrived: Promise<void>;
  release(): void;
  close(): Promise<void>;
}

async function startGate(target: string): Promise<Gate> {
  let arrive!: () => void;
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const server: Server = createServer((req, res) => {
    arrive();
    void released.then(() => {
      const { host: _host, ...headers } = req.headers;
      const upstream = request(`${target}${req.url ?? '/'}`, { method: req.method, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrived,
    release,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('progress in the CLI', () => {
  let server: TestServer;
  let dir: string;
  beforeAll(async () => {
    server = await startTestServer({ listing: smallListing(2) });
    dir = await tempDir();
  });
  afterAll(async () => {
    await server.close();
    await removeDir(dir);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /**
   * Runs the CLI against a gate while the test's fake clock (timers and Date; the servers'
   * own waits stay real) moves `fetchMs` on with the request held.
   */
  async function runWhileFetching(argv: string[], fetchMs: number, tty: boolean) {
    const gate = await startGate(server.url);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    try {
      const running = runInProcess([...argv, '--base-url', gate.url], { cwd: dir, env: { NO_COLOR: '1' }, tty });
      await gate.arrived;
      await vi.advanceTimersByTimeAsync(fetchMs);
      gate.release();
      return await running;
    } finally {
      vi.useRealTimers();
      await gate.close();
    }
  }

  it('a pull slower than a second shows a progress line on a terminal, and cleans it up', async () => {
    const run = await runWhileFetching(['pull'], 1300, true);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/schema-sync pull: fetching … 1\.\d s/);
    // The summary line starts on a cleared line and the output ends clean.
    expect(run.stderr).toMatch(/\r\u001b\[2KLocked 2 types \(no lockfile before\) · \d+ files written in \d\.\d s\n$/);
  });

  it('never when stderr is not a terminal', async () => {
    const piped = await runWhileFetching(['check'], 1100, false);
    expect(piped.code).toBe(0);
    expect(piped.stderr).not.toContain('\r');
  });
});

import type { CliIo } from './io.js';

/** A progress line on stderr, for runs that take a while. */
export interface Progress {
  /** The io to print through: writes clear the progress line first, so nothing interleaves. */
  readonly io: CliIo;
  /** Names what the run is doing now ("fetching", "writing" …). */
  stage(text: string): void;
  /** Removes the line for good; safe to call more than once. */
  stop(): void;
}

/**
 * Where the progress line reads the time and schedules its redraws. The real clock unless a test
 * gives its own, so a test can move time by hand instead of sleeping.
 */
export interface ProgressClock {
  now(): number;
  /** Calls `fn` once after `ms`; the returned function cancels it. */
  after(ms: number, fn: () => void): () => void;
  /** Calls `fn` every `ms`; the returned function cancels it. */
  every(ms: number, fn: () => void): () => void;
}

/**
 * Date.now and the global timers, looked up at each call (so a test's fake timers reach a CLI
 * run too); unref'd, so a progress line never keeps the process alive.
 */
const realClock: ProgressClock = {
  now: () => Date.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
  every(ms, fn) {
    const timer = setInterval(fn, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const CLEAR = '\r\u001b[2K';

/**
 * Starts a progress line: shown only when stderr is a TTY, not `--quiet`, not `TERM=dumb`, and
 * only once the run has taken longer than `delayMs` (1 s) — quick runs never see it. It redraws
 * every `intervalMs` in place and is cleared before anything else is printed and at the end.
 * Its timers never keep the process alive.
 */
export function startProgress(
  io: CliIo,
  options: { label: string; enabled?: boolean; delayMs?: number; intervalMs?: number; clock?: ProgressClock },
): Progress {
  const stderr = io.stderr;
  if (options.enabled === false || !stderr.isTTY || io.env['TERM'] === 'dumb') return { io, stage: () => undefined, stop: () => undefined };
  const clock = options.clock ?? realClock;
  const started = clock.now();
  let stage = '';
  let frame = 0;
  let shown = false;
  let stopped = false;

  const clear = () => {
    if (shown) stderr.write(CLEAR);
    shown = false;
  };
  const draw = () => {
    if (stopped) return;
    const seconds = ((clock.now() - started) / 1000).toFixed(1);
    const text = `${FRAMES[frame++ % FRAMES.length]} ${options.label}${stage ? `: ${stage}` : ''} … ${seconds} s`;
    const columns = (stderr as { columns?: number }).columns ?? 80;
    stderr.write(`${CLEAR}${text.slice(0, Math.max(10, columns - 1))}`);
    shown = true;
  };

  let stopTicker: (() => void) | undefined;
  const cancelDelay = clock.after(options.delayMs ?? 1000, () => {
    draw();
    stopTicker = clock.every(options.intervalMs ?? 100, draw);
  });

  /**
   * Output to a terminal stream goes through here: clear the line, then write synchronously, so
   * ordering is exactly as without progress. The line is redrawn on the next tick.
   */
  const through = (target: CliIo['stdout']): CliIo['stdout'] => {
    if (!target.isTTY) return target;
    const proxy = Object.create(target) as CliIo['stdout'];
    proxy.write = ((...args: Parameters<CliIo['stdout']['write']>) => {
      clear();
      return (target.write as (...a: unknown[]) => boolean)(...args);
    }) as CliIo['stdout']['write'];
    return proxy;
  };

  return {
    io: { ...io, stdout: through(io.stdout), stderr: through(io.stderr) },
    stage(text) {
      stage = text;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      cancelDelay();
      stopTicker?.();
      clear();
    },
  };
}

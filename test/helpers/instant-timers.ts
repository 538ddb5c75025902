import type { RetryTimers } from '../../src/fetch/index.js';

/** Retry timers whose waits take no time, and what they were asked to wait. */
export interface InstantTimers extends RetryTimers {
  /** Each wait asked for, in milliseconds, in order. */
  readonly slept: number[];
}

/**
 * Timers for the retry policy (`fetchDescriptors`' `timers`, the CLI's `CliIo.timers`) that
 * resolve every wait at once and note how long it was to be: a test of a 1 s `Retry-After` checks
 * the wait asked for without spending the second. `now` is a fixed time (`Retry-After` as an HTTP
 * date is read against it).
 */
export function instantTimers(now = Date.UTC(2026, 0, 1)): InstantTimers {
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: (ms) => {
      slept.push(ms);
      return Promise.resolve();
    },
  };
}

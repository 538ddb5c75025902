/** Exit codes, as `diff(1)`: 0 success / in sync, 1 drift (check only), 2 trouble; a signal's as a shell reports it. */
export const EXIT = { ok: 0, drift: 1, error: 2 } as const;

/** The exit code of a process ended by `signal` (128 + its number). */
export const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * Where a run ended by a signal left things: `untouched` (it stopped before its commit point and
 * rolled back, or never began to write), `completed` (it was past its commit point, and finished),
 * or `unknown` (a second signal ended it at once, without waiting for either).
 */
export type InterruptedState = 'untouched' | 'completed' | 'unknown';

const INTERRUPTED_STATES: Record<InterruptedState, string> = {
  untouched: 'before any change: nothing was written',
  completed: 'after the commit point: the change was completed',
  unknown: 'the lockfile and output folder are as before the run, or as it leaves them',
};

/** The one line a run ended by a signal prints, saying which state it left. */
export function interruptedLine(signal: keyof typeof SIGNAL_EXIT, state: InterruptedState): string {
  return `schema-sync: interrupted (${signal}) ${INTERRUPTED_STATES[state]}.\n`;
}

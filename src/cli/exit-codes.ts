/** Exit codes, as `diff(1)`: 0 success / in sync, 1 drift (check only), 2 trouble; a signal's as a shell reports it. */
export const EXIT = { ok: 0, drift: 1, error: 2 } as const;

/** The exit code of a process ended by `signal` (128 + its number). */
export const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

/** The one line a run ended by a signal prints. */
export function interruptedLine(signal: keyof typeof SIGNAL_EXIT): string {
  return `schema-sync: interrupted (${signal}); the lockfile and output folder are as before the run, or as it leaves them.\n`;
}

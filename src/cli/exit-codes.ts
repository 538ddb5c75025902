/** Exit codes, as `diff(1)`: 0 success / in sync, 1 drift (check only), 2 trouble. */
export const EXIT = { ok: 0, drift: 1, error: 2, interrupted: 130 } as const;

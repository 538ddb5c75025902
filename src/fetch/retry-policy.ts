/** Statuses worth another try: rate limiting and gateway trouble. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** Longest wait a `Retry-After` may impose: past it the run fails rather than hanging CI. */
export const MAX_RETRY_AFTER_MS = 120_000;

/** How retries are spaced. */
export interface BackoffOptions {
  /** First delay, doubled each try. */
  baseDelayMs: number;
  /** Cap on one delay. */
  maxDelayMs: number;
}

/** Default spacing: 0.5 s, 1 s, 2 s … capped at 10 s, each with up to 50 % jitter. */
export const DEFAULT_BACKOFF: BackoffOptions = { baseDelayMs: 500, maxDelayMs: 10_000 };

/**
 * Delay before try number `attempt + 1` (attempt counts from 1): exponential with jitter, so
 * many CI jobs failing together do not retry in lock-step; a server's `Retry-After` wins.
 */
export function retryDelayMs(attempt: number, retryAfterMs: number | undefined, backoff: BackoffOptions, random = Math.random): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
  const exp = Math.min(backoff.baseDelayMs * 2 ** (attempt - 1), backoff.maxDelayMs);
  return Math.round(exp * (0.5 + random() * 0.5));
}

/** Parses `Retry-After` as seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

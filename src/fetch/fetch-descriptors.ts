import { setTimeout as sleep } from 'node:timers/promises';
import { NetworkError, SchemaSyncError } from '../model/errors.js';
import { createRedactor, redactError, type Redactor } from '../model/redact.js';
import type { ListingSource } from '../model/source.js';
import { createDispatcher, httpGet, TimeoutError, type HttpResponse } from './http-get.js';
import { listingFingerprint } from './fingerprint.js';
import { excerpt, interpretBody } from './interpret-body.js';
import { parseListing, type ParsedListing } from './parse-listing.js';
import { echoRedactor, scrubSecrets } from './scrub-secrets.js';
import { buildRequestUrl, displayBaseUrl, publicQuery, validateLimit, type Credentials, type ListingQuery } from './query.js';
import { DEFAULT_BACKOFF, MAX_RETRY_AFTER_MS, parseRetryAfter, RETRY_STATUSES, retryDelayMs, type BackoffOptions } from './retry-policy.js';

/** Options of {@link fetchDescriptors}. */
export interface FetchOptions {
  /** Service base URL; `/rest/proto` is appended. */
  baseUrl: string;
  /** Query parameters, each sent only when set. */
  query?: ListingQuery;
  /** API key and secret; never recorded, always redacted. */
  credentials?: Credentials;
  /** Time for one whole request, body included. @default 30000 */
  timeoutMs?: number;
  /** Further tries after the first on connection errors, timeouts, 429, 502, 503, 504. @default 3 */
  retries?: number;
  /** Accept a listing that fills `limit`. @default false */
  allowTruncated?: boolean;
  /** Retry spacing. @default 0.5 s doubling to 10 s, with jitter */
  backoff?: BackoffOptions;
  /** Environment for proxy settings. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Progress events for `--verbose`; URLs in them are already redacted. */
  onEvent?: (event: FetchEvent) => void;
}

/** What happened on the wire, for logs. */
export type FetchEvent =
  | { type: 'request'; url: string; attempt: number }
  | { type: 'response'; status: number; bytes: number; ms: number }
  | { type: 'retry'; attempt: number; delayMs: number; reason: string };

/** A validated listing and where it came from. */
export interface FetchResult extends ParsedListing {
  source: ListingSource;
  /**
   * Fingerprint of the response ({@link listingFingerprint}), when the result does not depend on
   * the run's secrets (none of them was found in the listing); absent otherwise.
   */
  fingerprint?: string;
}

/**
 * A response whose fingerprint the caller said it knows: it was not validated, since the caller
 * already holds what it parses to. `parse()` validates it after all, should that be needed.
 */
export interface KnownListing {
  known: true;
  source: ListingSource;
  fingerprint: string;
  parse(): FetchResult;
}

/** Asked with a response's fingerprint: true when the caller knows what it parses to. */
export type KnownFingerprint = (fingerprint: string) => boolean;

/**
 * Fetches every descriptor from `GET {baseUrl}/rest/proto`, with retries, and validates it.
 * Errors are {@link SchemaSyncError}s whose messages never contain the key or secret.
 */
export async function fetchDescriptors(options: FetchOptions): Promise<FetchResult> {
  return (await fetchListing(options)) as FetchResult;
}

/**
 * {@link fetchDescriptors}, but a response whose fingerprint `isKnown` accepts is returned
 * unparsed as a {@link KnownListing}: a run where the service's answer has not changed skips
 * validating 10,000 descriptors. Never for a listing that holds one of the run's secrets.
 */
export async function fetchListing(options: FetchOptions, isKnown?: KnownFingerprint): Promise<FetchResult | KnownListing> {
  const query = options.query ?? {};
  const limit = validateLimit(query.limit);
  const credentials = options.credentials ?? {};
  const redact = createRedactor([credentials.apiKey, credentials.secret]);
  const url = buildRequestUrl(options.baseUrl, query, credentials);
  const shownUrl = redact(url.toString());
  const timeoutMs = options.timeoutMs ?? 30_000;
  const dispatcher = createDispatcher(options.env ?? process.env, timeoutMs);
  const redacting = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      throw redactError(error, redact);
    }
  };
  try {
    const response = await getWithRetries(url, shownUrl, redact, { ...options, timeoutMs, dispatcher });
    const source: ListingSource = { baseUrl: displayBaseUrl(options.baseUrl), query: publicQuery(query) };
    const fingerprint = listingFingerprint({ body: response.bytes, contentType: response.contentType, source, limit, allowTruncated: options.allowTruncated });
    const echo = echoRedactor([credentials.apiKey, credentials.secret]);
    let raw: unknown;
    const parse = (): FetchResult =>
      redacting(() => {
        raw ??= interpretBody(response.body, response.contentType, shownUrl, redact);
        const { body, elements } = echo ? scrubSecrets(raw, echo) : { body: raw, elements: [] };
        const parsed = parseListing(body, { origin: shownUrl, limit, allowTruncated: options.allowTruncated });
        if (elements.length > 0) return { ...parsed, warnings: [echoWarning(elements), ...parsed.warnings], source };
        return { ...parsed, source, fingerprint };
      });
    if (isKnown?.(fingerprint)) {
      // With secrets in play, known only when none occurs in the listing: then what it parses to
      // cannot depend on them (nothing is scrubbed).
      const clean = echo === undefined || redacting(() => scrubSecrets((raw = interpretBody(response.body, response.contentType, shownUrl, redact)), echo).elements.length === 0);
      if (clean) return { known: true, source, fingerprint, parse };
    }
    return parse();
  } catch (error) {
    throw redactError(error, redact);
  } finally {
    await dispatcher.close().catch(() => undefined);
  }
}

async function getWithRetries(
  url: URL,
  shownUrl: string,
  redact: Redactor,
  options: FetchOptions & { timeoutMs: number; dispatcher: Parameters<typeof httpGet>[1]['dispatcher'] },
): Promise<HttpResponse> {
  const retries = options.retries ?? 3;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const tries = retries + 1;
  for (let attempt = 1; ; attempt++) {
    options.onEvent?.({ type: 'request', url: shownUrl, attempt });
    const started = Date.now();
    let reason: string;
    let retryAfterMs: number | undefined;
    try {
      const response = await httpGet(url, { dispatcher: options.dispatcher, timeoutMs: options.timeoutMs });
      options.onEvent?.({ type: 'response', status: response.status, bytes: response.bytes.length, ms: Date.now() - started });
      if (response.status >= 200 && response.status < 300) return response;
      const statusError = statusFailure(response, shownUrl, redact);
      if (!RETRY_STATUSES.has(response.status)) throw statusError;
      if (attempt >= tries) throw exhausted(statusError, tries);
      reason = `status ${response.status}`;
      retryAfterMs = parseRetryAfter(response.headers['retry-after']);
      if (retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_AFTER_MS) {
        // Waiting an hour would look like a hung CI job: fail now and say when to come back.
        throw new NetworkError(
          `${statusError.message} (it asks to retry after ${Math.ceil(retryAfterMs / 1000)} s, longer than the ${MAX_RETRY_AFTER_MS / 1000} s schema-sync waits)`,
          { hint: 'The service is rate limiting or down for a while: try again later.', status: response.status },
        );
      }
    } catch (error) {
      if (error instanceof SchemaSyncError) throw error;
      const cause = describeConnectionError(error, options.timeoutMs);
      if (attempt >= tries) {
        throw new NetworkError(`could not get ${shownUrl} after ${tries} ${tries === 1 ? 'try' : 'tries'}: ${cause}.`, {
          hint: 'Check --base-url, that the service is up and reachable from here (proxy: HTTPS_PROXY/NO_PROXY), or raise --timeout/--retries.',
        });
      }
      reason = cause;
    }
    const delayMs = retryDelayMs(attempt, retryAfterMs, backoff);
    options.onEvent?.({ type: 'retry', attempt, delayMs, reason });
    await sleep(delayMs);
  }
}

function statusFailure(response: HttpResponse, shownUrl: string, redact: Redactor): NetworkError {
  const body = excerpt(response.body, redact);
  const detail = body ? `: ${body}` : '';
  let hint = 'Check --base-url and the query parameters.';
  if (response.status === 401 || response.status === 403) {
    hint = 'The service refused the credentials: check --api-key / SCHEMA_SYNC_API_KEY and --secret / SCHEMA_SYNC_SECRET.';
  } else if (response.status === 404) {
    hint = 'Check --base-url: the service path /rest/proto is added to it.';
  } else if (RETRY_STATUSES.has(response.status)) {
    hint = 'The service is overloaded or down: try again later, or raise --retries.';
  } else if (response.status >= 500) {
    hint = 'The service failed: try again later, or ask its operators.';
  }
  return new NetworkError(`${shownUrl} answered HTTP ${response.status}${detail}`, { hint, status: response.status });
}

function exhausted(error: NetworkError, tries: number): NetworkError {
  return new NetworkError(`gave up after ${tries} tries; last answer: ${error.message}`, {
    hint: error.hint,
    status: error.status,
  });
}

/** undici's redirect interceptor refuses to follow a Location it has already visited. */
function isRedirectLoop(error: unknown): boolean {
  return error instanceof Error && /^Redirect loop detected\b/.test(error.message);
}

function describeConnectionError(error: unknown, timeoutMs: number): string {
  if (error instanceof TimeoutError) return `timed out after ${timeoutMs} ms (--timeout)`;
  // A redirect back to where it came from: worth another try (it may have set something up),
  // but say what it is, not undici's advice about Client and Agent.
  if (isRedirectLoop(error)) return 'the service redirected in a loop, back to an address it had already sent schema-sync to';
  const err = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.code ?? err.cause?.code;
  const message = err.cause?.message ?? err.message ?? String(error);
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset by the server',
    UND_ERR_SOCKET: 'connection closed by the server before the answer was complete',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host name lookup failed',
    UND_ERR_HEADERS_TIMEOUT: `no answer within ${timeoutMs} ms (--timeout)`,
    UND_ERR_BODY_TIMEOUT: `the answer stalled for ${timeoutMs} ms (--timeout)`,
    UND_ERR_CONNECT_TIMEOUT: 'connecting timed out',
  };
  return code && known[code] ? `${known[code]} (${code})` : message;
}

function echoWarning(elements: number[]): string {
  const where = elements[0] === -1 ? 'its answer' : `${elements.length === 1 ? 'element' : 'elements'} ${elements.slice(0, 10).join(', ')}${elements.length > 10 ? ' …' : ''}`;
  return `the service echoed the API key or secret in ${where} of the listing; replaced by *** so it is neither stored nor generated.`;
}


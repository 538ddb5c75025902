import { setTimeout as sleep } from 'node:timers/promises';
import { NetworkError, SchemaSyncError } from '../model/errors.js';
import { createRedactor, redactError, REDACTED, type Redactor } from '../model/redact.js';
import { createDispatcher, httpGet, ProxyAuthenticationError, TimeoutError, type GetOptions, type HttpResponse } from './http-get.js';
import { excerpt } from './answer-body.js';
import { listingResponse, type FetchResult, type ListingResponse } from './listing-response.js';
import { buildRequestUrl, displayBaseUrl, publicQuery, validateLimit, type ListingQuery } from './query.js';
import type { Settings } from '../config/settings.js';
import { validateMaxBytes } from './read-limited.js';
import { messageText, msg, own, type Message } from '../model/message.js';
import { plural } from '../util/plural.js';

/**
 * The settings that say how to reach the service (the settings table's rows, as the config file
 * and the flags name them): the key and secret (never recorded, always redacted), the time for
 * one whole request, body included (`timeout`, default 30000 ms), further tries after the first
 * on connection errors, timeouts, 429, 502, 503, 504 (`retries`, default 3), and the most bytes of
 * body, once decompressed, read before the request is aborted and not retried (`maxBytes`,
 * default 32 MiB).
 */
export type ServiceSettings = Pick<Settings, 'apiKey' | 'secret' | 'timeout' | 'retries' | 'maxBytes'>;

/** Options of {@link fetchDescriptors}: where the service is, the settings that reach it, and the hooks of the requests. */
export interface FetchOptions extends ServiceSettings, Pick<Settings, 'allowTruncated'> {
  /** Service base URL; `/rest/proto` is appended. */
  baseUrl: string;
  /** Query parameters, each sent only when set. */
  query?: ListingQuery;
  /** Retry spacing. @default 0.5 s doubling to 10 s, with jitter */
  backoff?: BackoffOptions;
  /** Environment for proxy settings. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Waits between tries and reads the time for an HTTP-date `Retry-After` (tests pass their own clock). @default real time */
  timers?: RetryTimers;
  /** Progress events for `--verbose`; URLs in them are already redacted. */
  onEvent?: (event: FetchEvent) => void;
  /**
   * The run's redactor (a library entry point or the CLI passes its own, so a run has one).
   * @default built from `apiKey` and `secret`
   */
  redact?: Redactor;
}

/** What happened on the wire, for logs; `schemas`: how many of the getschema answers a pull needs are in (for a progress line). */
export type FetchEvent =
  | { type: 'request'; url: string; attempt: number }
  | { type: 'response'; status: number; bytes: number; ms: number }
  | { type: 'retry'; attempt: number; delayMs: number; reason: string }
  | { type: 'schemas'; done: number; total: number };

/**
 * Fetches every descriptor from `GET {baseUrl}/rest/proto`, with retries, and validates it.
 * Errors are {@link SchemaSyncError}s whose messages never contain the key or secret.
 */
export async function fetchDescriptors(options: FetchOptions): Promise<FetchResult> {
  return (await requestListing(options)).result();
}

/**
 * Gets the answer of `GET {baseUrl}/rest/proto`, with retries, without parsing it: the caller
 * decides from its {@link ListingResponse.identity} whether to. Errors are redacted.
 */
export async function requestListing(options: FetchOptions): Promise<ListingResponse> {
  const query = options.query ?? {};
  const limit = validateLimit(query.limit);
  return withServiceRequests(options, async (get, redact) => {
    const { response, shownUrl } = await get(query);
    return listingResponse({
      source: { baseUrl: displayBaseUrl(options.baseUrl), query: publicQuery(query) },
      identity: { bodyHash: response.hash, contentType: response.contentType, limit, allowTruncated: options.allowTruncated === true },
      body: response.bytes,
      origin: shownUrl,
      redact,
    });
  });
}

/** One answer of the service, read whole, and the request's URL as it may be shown (redacted). */
export interface ServiceAnswer {
  response: HttpResponse;
  shownUrl: string;
}

/**
 * Runs `work` with `get`, which GETs `{baseUrl}/rest/proto` with a query (and the credentials)
 * the way every request of schema-sync is made: one dispatcher (proxies, timeouts) for all of
 * them, retries with backoff, bodies limited to `maxBytes`, a 2xx answer or a {@link SchemaSyncError}. Every error `work`
 * throws is redacted; `redact` (the run's redactor, given or built from these credentials) also scrubs answers.
 */
export async function withServiceRequests<T>(
  options: Omit<FetchOptions, 'query' | 'allowTruncated'>,
  work: (get: (query: ListingQuery) => Promise<ServiceAnswer>, redact: Redactor) => Promise<T>,
): Promise<T> {
  const maxBytes = validateMaxBytes(options.maxBytes);
  const credentials = { apiKey: options.apiKey, secret: options.secret };
  const redact = options.redact ?? createRedactor([credentials.apiKey, credentials.secret]);
  const timeoutMs = options.timeout ?? 30_000;
  const dispatcher = createDispatcher(options.env ?? process.env, timeoutMs);
  // The credentials are shown as `***` by position, never by looking for them: the redactor would
  // also mask a key that is a word of the URL's own (`proto` in /rest/proto).
  const shownCredentials = { apiKey: credentials.apiKey && REDACTED, secret: credentials.secret && REDACTED };
  const get = async (query: ListingQuery): Promise<ServiceAnswer> => {
    const url = buildRequestUrl(options.baseUrl, query, credentials);
    const shown = buildRequestUrl(options.baseUrl, query, shownCredentials).toString();
    const shownUrl = redact.data?.(shown) ?? shown;
    return { response: await getWithRetries(url, redact, options, { timeoutMs, maxBytes, dispatcher, shownUrl }), shownUrl };
  };
  try {
    return await work(get, redact);
  } catch (error) {
    throw redactError(error, redact);
  } finally {
    // Not close(): it waits for requests undici still has queued, and one waiting for a
    // connection that never comes would hold the run past its timeout.
    await dispatcher.destroy().catch(() => undefined);
  }
}

/** Statuses worth another try: rate limiting and gateway trouble. */
const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** Longest wait a `Retry-After` may impose: past it the run fails rather than hanging CI. */
const MAX_RETRY_AFTER_MS = 120_000;

/** How retries are spaced. */
export interface BackoffOptions {
  /** First delay, doubled each try. */
  baseDelayMs: number;
  /** Cap on one delay. */
  maxDelayMs: number;
}

/** Default spacing: 0.5 s, 1 s, 2 s … capped at 10 s, each with up to 50 % jitter. */
const DEFAULT_BACKOFF: BackoffOptions = { baseDelayMs: 500, maxDelayMs: 10_000 };

/**
 * Delay before try number `attempt + 1` (attempt counts from 1): exponential with jitter, so
 * many CI jobs failing together do not retry in lock-step; a server's `Retry-After` wins.
 */
function retryDelayMs(attempt: number, retryAfterMs: number | undefined, backoff: BackoffOptions): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
  const exp = Math.min(backoff.baseDelayMs * 2 ** (attempt - 1), backoff.maxDelayMs);
  return Math.round(exp * (0.5 + Math.random() * 0.5));
}

/** Parses `Retry-After` as seconds or an HTTP date (against `now`); undefined when absent or unreadable. */
function parseRetryAfter(value: string | string[] | undefined, now: () => number): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now());
}

/** The time as the retry policy sees it. */
export interface RetryTimers {
  /** Milliseconds since the epoch, to read an HTTP-date `Retry-After` against. */
  now(): number;
  /** Resolves after `ms` milliseconds. */
  sleep(ms: number): Promise<void>;
}

const REAL_TIMERS: RetryTimers = { now: () => Date.now(), sleep: (ms) => sleep(ms) };

async function getWithRetries(url: URL, redact: Redactor, options: FetchOptions, get: GetOptions): Promise<HttpResponse> {
  const { shownUrl } = get;
  const retries = options.retries ?? 3;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const timers = options.timers ?? REAL_TIMERS;
  const tries = retries + 1;
  for (let attempt = 1; ; attempt++) {
    options.onEvent?.({ type: 'request', url: shownUrl, attempt });
    const started = performance.now();
    let reason: string;
    let retryAfterMs: number | undefined;
    try {
      const response = await httpGet(url, get);
      options.onEvent?.({ type: 'response', status: response.status, bytes: response.bytes.length, ms: Math.round(performance.now() - started) });
      if (response.status >= 200 && response.status < 300) return response;
      const statusError = statusFailure(response, { shownUrl, keyGiven: Boolean(options.apiKey || options.secret) }, redact);
      if (!RETRY_STATUSES.has(response.status)) throw statusError;
      if (attempt >= tries) {
        throw new NetworkError(msg`gave up after ${own(plural(tries, 'try', 'tries'))}; last answer: ${statusError.said.message}`, { hint: statusError.said.hint, status: statusError.status });
      }
      reason = `status ${response.status}`;
      retryAfterMs = parseRetryAfter(response.headers['retry-after'], timers.now);
      if (retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_AFTER_MS) {
        // Waiting an hour would look like a hung CI job: fail now and say when to come back.
        throw new NetworkError(
          msg`${statusError.said.message} (it asks to retry after ${Math.ceil(retryAfterMs / 1000)} s, longer than the ${MAX_RETRY_AFTER_MS / 1000} s schema-sync waits)`,
          { hint: msg`The service is rate limiting or down for a while: try again later.`, status: response.status },
        );
      }
    } catch (error) {
      if (error instanceof SchemaSyncError) throw error;
      const mismatch = protocolMismatch(error, shownUrl) ?? proxyAuthentication(error, shownUrl);
      if (mismatch) throw mismatch;
      // What the network stack says is outside text: masked where it comes in.
      const cause = describeConnectionError(error, get.timeoutMs);
      if (attempt >= tries) {
        throw new NetworkError(msg`could not get ${shownUrl} after ${own(plural(tries, 'try', 'tries'))}: ${cause}.`, {
          hint: msg`Check --base-url, that the service is up and reachable from here (proxy: HTTPS_PROXY/NO_PROXY), or raise --timeout/--retries.`,
        });
      }
      reason = messageText(cause, redact);
    }
    const delayMs = retryDelayMs(attempt, retryAfterMs, backoff);
    options.onEvent?.({ type: 'retry', attempt, delayMs, reason });
    await timers.sleep(delayMs);
  }
}

/**
 * An https:// address whose server speaks plain HTTP, or an http:// one whose server speaks
 * something else (TLS): every retry would meet the same server, so the run fails at once.
 */
function protocolMismatch(error: unknown, shownUrl: string): NetworkError | undefined {
  const err = error as { name?: string; code?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code;
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG') {
    return new NetworkError(msg`${shownUrl}: the server does not speak TLS (${own(code)}): it looks like a plain http:// service reached with https://.`, {
      hint: msg`Check --base-url: use http:// for this service (or the https:// address of its TLS port).`,
    });
  }
  if (err.name === 'HTTPParserError') {
    return new NetworkError(msg`${shownUrl}: the server's answer is not HTTP (${(error as Error).message}): it looks like a TLS (https://) port reached with http://.`, {
      hint: msg`Check --base-url: use https:// for this service.`,
    });
  }
  return undefined;
}

/**
 * A proxy that wants authentication (407): every retry would be refused the same way, so the run
 * fails at once, naming the proxy by its origin (never its user or password).
 */
function proxyAuthentication(error: unknown, shownUrl: string): NetworkError | undefined {
  const found = error instanceof ProxyAuthenticationError ? error : (error as { cause?: unknown }).cause;
  if (!(found instanceof ProxyAuthenticationError)) return undefined;
  return new NetworkError(msg`the proxy at ${found.proxy} wants authentication: it answered HTTP 407 Proxy Authentication Required to the request for ${shownUrl}.`, {
    hint: found.credentialsSent
      ? msg`It refused the user and password it was given: check the user and password in HTTPS_PROXY / HTTP_PROXY (http://user:password@host:port, special characters percent-encoded), or ask the proxy's admin.`
      : msg`Put the user and password in HTTPS_PROXY / HTTP_PROXY as http://user:password@host:port (special characters percent-encoded), or ask the proxy's admin for access without them.`,
    status: 407,
  });
}

/**
 * The error of a non-2xx answer, with a hint by status. `keyGiven`: whether the request carried
 * an API key or secret, so a 401 to one without says so rather than blaming credentials never sent.
 */
function statusFailure(response: HttpResponse, request: { shownUrl: string; keyGiven: boolean }, redact: Redactor): NetworkError {
  const { shownUrl } = request;
  const body = excerpt(response.bytes, redact);
  const detail = body ? msg`: ${body}` : own('');
  let hint = msg`Check --base-url and the query parameters.`;
  if ((response.status === 401 || response.status === 403) && !request.keyGiven) {
    hint = msg`The service wants credentials, and no API key was given: set SCHEMA_SYNC_API_KEY (and SCHEMA_SYNC_SECRET if it needs one), or pass --api-key.`;
  } else if (response.status === 401 || response.status === 403) {
    hint = msg`The service refused the credentials: check --api-key / SCHEMA_SYNC_API_KEY and --secret / SCHEMA_SYNC_SECRET.`;
  } else if (response.status === 404) {
    hint = msg`Check --base-url: the service path /rest/proto is added to it.`;
  } else if (RETRY_STATUSES.has(response.status)) {
    hint = msg`The service is overloaded or down: try again later, or raise --retries.`;
  } else if (response.status >= 500) {
    hint = msg`The service failed: try again later, or ask its operators.`;
  }
  return new NetworkError(msg`${shownUrl} answered HTTP ${response.status}${detail}`, { hint, status: response.status });
}

/** What went wrong with the connection: the program's wording for the errors it knows, else the network stack's message (outside text). */
function describeConnectionError(error: unknown, timeoutMs: number): Message {
  if (error instanceof TimeoutError) return msg`timed out after ${timeoutMs} ms (--timeout)`;
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
    SCHEMA_SYNC_PROXY_CLOSED: 'the proxy (HTTPS_PROXY/HTTP_PROXY) closed the connection instead of answering CONNECT',
  };
  return code && known[code] ? msg`${own(known[code])} (${own(code)})` : msg`${message}`;
}

/**
 * Fault switches: the misbehaviours real deployments of the service show (error statuses, HTML
 * login pages, slow or cut connections, redirects, compressed bodies, odd JSON), how they are
 * checked, and how an answer is sent under one: replaced, late, in slow chunks, compressed, or
 * cut off. The server queues them per request, so a test can say "two failures, then success".
 * Replacement bodies are fixed texts, so the same fault always gives the same bytes. Every wait
 * listens to the server's abort signal so that `close()` never waits for a fault to play out.
 */

import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { errorAnswer, jsonAnswer, textAnswer, type Answer } from './answer.js';

/** One way of (mis)answering a single request. */
export type Fault =
  /** Answer with this status; the body defaults to `{"error":"<status text>"}`. */
  | {
      kind: 'status';
      status: number;
      body?: string;
      /** @default 'application/json' when the body parses as JSON (or is absent), else 'text/plain' */
      contentType?: string;
      /** Sent as the `Retry-After` header: seconds, or an HTTP date. */
      retryAfter?: string | number;
      headers?: Record<string, string>;
    }
  /** Answer with an HTML page, like a login proxy or an error page; status defaults to 200. */
  | { kind: 'html'; status?: number; body?: string }
  /** Wait this long before sending headers, then answer normally. */
  | { kind: 'delay'; ms: number }
  /** Send the headers, then the normal body in `chunks` pieces (default 4), pausing before each. */
  | { kind: 'slowBody'; chunkDelayMs: number; chunks?: number }
  /** Drop the connection: before the headers, or after `afterBytes` bytes of the normal body. */
  | { kind: 'reset'; afterBytes?: number }
  /** Redirect to `location`; status defaults to 302. */
  | { kind: 'redirect'; location: string; status?: number }
  /** Answer normally with the body compressed, whatever the request's `Accept-Encoding`. */
  | { kind: 'gzip' | 'deflate' | 'br' }
  /** Answer with this JSON instead of the listing; status defaults to 200. */
  | { kind: 'json'; body: unknown; status?: number };

/**
 * Checks a fault when it is queued, not when a request hits it: a typo should fail the test
 * that wrote it, not surface as a confusing client error later.
 */
export function assertFault(fault: Fault): void {
  const problem = faultProblem(fault);
  if (problem !== undefined) throw new TypeError(`Invalid ${fault.kind} fault: ${problem}.`);
}

function faultProblem(fault: Fault): string | undefined {
  switch (fault.kind) {
    case 'status':
      return statusProblem(fault.status);
    case 'html':
    case 'json':
      return fault.status === undefined ? undefined : statusProblem(fault.status);
    case 'redirect':
      if (fault.location === '') return 'location is empty';
      return fault.status === undefined || (fault.status >= 300 && fault.status <= 399)
        ? undefined
        : `status ${fault.status} is not a 3xx redirect status`;
    case 'delay':
      return countProblem('ms', fault.ms, 0);
    case 'slowBody':
      return countProblem('chunkDelayMs', fault.chunkDelayMs, 0) ?? countProblem('chunks', fault.chunks, 1);
    case 'reset':
      return countProblem('afterBytes', fault.afterBytes, 0);
    case 'gzip':
    case 'deflate':
    case 'br':
      return undefined;
    default:
      return `unknown kind "${String((fault as { kind: unknown }).kind)}"`;
  }
}

function statusProblem(status: number): string | undefined {
  return Number.isInteger(status) && status >= 100 && status <= 599
    ? undefined
    : `status ${status} is not an HTTP status`;
}

function countProblem(name: string, value: number | undefined, min: number): string | undefined {
  if (value === undefined) return undefined;
  return Number.isInteger(value) && value >= min ? undefined : `${name} must be an integer >= ${min}, got ${value}`;
}

const COMPRESSORS = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };

/** The number of pieces a `slowBody` fault splits the body into when it does not say. */
const DEFAULT_SLOW_CHUNKS = 4;

/**
 * Sends `normal`, or what `fault` makes of it. Resolves when the answer is sent or the
 * connection is dropped; rejects when `signal` aborts a wait (the server is closing and
 * destroys the socket itself).
 */
export async function deliver(
  response: ServerResponse,
  normal: Answer,
  fault: Fault | undefined,
  signal: AbortSignal,
): Promise<void> {
  if (fault === undefined) return send(response, normal);
  switch (fault.kind) {
    case 'status':
      return send(response, statusAnswer(fault));
    case 'html': {
      const headers = { 'content-type': 'text/html; charset=utf-8' };
      return send(response, textAnswer(fault.status ?? 200, headers, fault.body ?? LOGIN_PAGE));
    }
    case 'redirect': {
      const headers = { location: fault.location, 'content-type': 'text/plain' };
      return send(response, textAnswer(fault.status ?? 302, headers, `Redirecting to ${fault.location}`));
    }
    case 'json':
      return send(response, jsonAnswer(fault.status ?? 200, fault.body));
    case 'delay':
      await sleep(fault.ms, undefined, { signal });
      return send(response, normal);
    case 'slowBody':
      return sendSlowly(response, normal, fault, signal);
    case 'reset':
      if (fault.afterBytes !== undefined) return cutAfter(response, normal, fault.afterBytes);
      // Before the headers: a TCP reset, so the client sees ECONNRESET.
      response.socket?.resetAndDestroy();
      return;
    case 'gzip':
    case 'deflate':
    case 'br':
      return send(response, {
        status: normal.status,
        headers: { ...normal.headers, 'content-encoding': fault.kind, vary: 'Accept-Encoding' },
        body: COMPRESSORS[fault.kind](normal.body),
      });
  }
}

/** Sends a whole answer with an exact `content-length`. */
function send(response: ServerResponse, answer: Answer): void {
  if (response.destroyed) return;
  response.writeHead(answer.status, withLength(answer));
  response.end(answer.body);
}

function withLength(answer: Answer): Record<string, string> {
  return { ...answer.headers, 'content-length': String(answer.body.length) };
}

/** The answer of a `status` fault: its body (JSON or text), or the `{ "error": … }` of real servers. */
function statusAnswer(fault: Extract<Fault, { kind: 'status' }>): Answer {
  const base =
    fault.body === undefined
      ? errorAnswer(fault.status)
      : textAnswer(fault.status, { 'content-type': guessContentType(fault.body) }, fault.body);
  const headers = { ...base.headers };
  if (fault.contentType !== undefined) headers['content-type'] = fault.contentType;
  if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
  // Given headers last, lower-cased, so they can override anything above.
  for (const [name, value] of Object.entries(fault.headers ?? {})) headers[name.toLowerCase()] = value;
  return { status: fault.status, headers, body: base.body };
}

function guessContentType(body: string): string {
  try {
    JSON.parse(body);
    return 'application/json';
  } catch {
    return 'text/plain';
  }
}

async function sendSlowly(
  response: ServerResponse,
  answer: Answer,
  fault: Extract<Fault, { kind: 'slowBody' }>,
  signal: AbortSignal,
): Promise<void> {
  // The full length is announced up front, so a client that gives up early sees a short body.
  response.writeHead(answer.status, withLength(answer));
  response.flushHeaders();
  for (const chunk of splitBody(answer.body, fault.chunks ?? DEFAULT_SLOW_CHUNKS)) {
    await sleep(fault.chunkDelayMs, undefined, { signal });
    if (response.destroyed) return;
    response.write(chunk);
  }
  response.end();
}

/** Splits a body into at most `count` nearly equal pieces (one empty piece for an empty body). */
export function splitBody(body: Buffer, count: number): Buffer[] {
  const size = Math.max(1, Math.ceil(body.length / count));
  const pieces: Buffer[] = [];
  for (let start = 0; start < body.length; start += size) pieces.push(body.subarray(start, start + size));
  return pieces.length > 0 ? pieces : [body];
}

/**
 * Sends the headers (with the full length) and the first `afterBytes` body bytes, then closes
 * the connection: the client sees a body cut short, as when a proxy or the server dies. With
 * `afterBytes` at or past the body's length the whole body goes out before the close.
 */
async function cutAfter(response: ServerResponse, answer: Answer, afterBytes: number): Promise<void> {
  response.writeHead(answer.status, withLength(answer));
  const part = answer.body.subarray(0, afterBytes);
  if (part.length === 0) {
    response.flushHeaders();
  } else {
    // Wait until the bytes reach the socket (or the client is gone) before closing it.
    await new Promise<void>((resolve) => {
      response.once('close', resolve);
      response.write(part, () => resolve());
    });
  }
  // A plain close (FIN) rather than a reset: a reset could discard the bytes just written.
  response.socket?.end();
}

/**
 * A single-sign-on login page of the kind a proxy in front of the service returns with a 200
 * when a session has expired: the classic way a client mistakes HTML for a listing.
 */
const LOGIN_PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Sign in - Corporate SSO</title>
  <link rel="stylesheet" href="/sso/static/login.css">
</head>
<body class="login">
  <main>
    <h1>Sign in to continue</h1>
    <p>Your session has expired. Please sign in again.</p>
    <form method="post" action="/sso/login">
      <input type="hidden" name="returnTo" value="/rest/proto">
      <label>User name <input type="text" name="username" autocomplete="username"></label>
      <label>Password <input type="password" name="password" autocomplete="current-password"></label>
      <button type="submit">Sign in</button>
    </form>
    <footer>Request id 0000-0000-0000</footer>
  </main>
</body>
</html>
`;

/**
 * Faults for the tests' reference server (`test-server.ts`): the misbehaviours real deployments
 * of the service show (error statuses, HTML login pages, slow or cut connections, redirects,
 * compressed bodies, odd JSON), and what hostile ones do (bodies without end, gzip bombs, broken
 * compression, bytes that are not UTF-8, a TLS port); how they are checked, and how an answer is
 * sent under one: replaced, late, in slow chunks, compressed, cut off, or never finished. The
 * server queues them per request, so a test can say "two failures, then success". Replacement
 * bodies are fixed texts, so the same fault always gives the same bytes. Every wait listens to
 * the server's abort signal so that `close()` never waits for a fault to play out.
 */

import type { ServerResponse } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { errorAnswer, jsonAnswer, sendAnswer as send, textAnswer, type Answer } from '../../../src/server/answer.js';

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
  /**
   * Answer normally with the body compressed, whatever the request's `Accept-Encoding`. With
   * `cutAt`, only the first `cutAt` bytes of the compressed body are sent, with a Content-Length
   * to match: a complete HTTP answer whose compressed data ends early.
   */
  | { kind: 'gzip' | 'deflate' | 'br'; cutAt?: number }
  /** Answer normally with the body gzipped twice, as `Content-Encoding: gzip, gzip` says (a proxy that compresses again). */
  | { kind: 'gzipTwice' }
  /** Say `Content-Encoding: gzip` (or `encoding`) over the normal, uncompressed body: nothing can decode it. */
  | { kind: 'undecodable'; encoding?: 'gzip' | 'deflate' | 'br' }
  /**
   * A gzip bomb: a small gzip body (about 1/1000 of the size) that inflates to `inflatedBytes`
   * (default 2 GiB) of a JSON array's opening `[` and blanks.
   */
  | { kind: 'gzipBomb'; inflatedBytes?: number }
  /** A 200 JSON answer whose body never ends: listing elements, over and over, as fast as the client reads. */
  | { kind: 'endless' }
  /** Answer with exactly these bytes (e.g. ones that are not UTF-8); status defaults to 200, type to JSON; a `Content-Encoding` only when given. */
  | { kind: 'bytes'; body: Uint8Array; status?: number; contentType?: string; contentEncoding?: string }
  /** Answer as a TLS port does to plain HTTP: a TLS alert record, not HTTP, then close. */
  | { kind: 'tls' }
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
    case 'bytes':
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
      return countProblem('cutAt', fault.cutAt, 0);
    case 'gzipBomb':
      return countProblem('inflatedBytes', fault.inflatedBytes, 1);
    case 'gzipTwice':
      return undefined;
    case 'undecodable':
      return fault.encoding === undefined || fault.encoding in COMPRESSORS ? undefined : `unknown encoding "${String(fault.encoding)}"`;
    case 'endless':
    case 'tls':
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
 * How the server waits (for `delay` and `slowBody`): resolves after `ms`, rejects when `signal`
 * aborts. Real time by default; a test can pass its own and so never wait for real.
 */
export type Wait = (ms: number, signal: AbortSignal) => Promise<void>;

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
  wait: Wait,
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
      await wait(fault.ms, signal);
      return send(response, normal);
    case 'slowBody':
      return sendSlowly(response, normal, fault, signal, wait);
    case 'reset':
      if (fault.afterBytes !== undefined) return cutAfter(response, normal, fault.afterBytes);
      // Before the headers: a TCP reset, so the client sees ECONNRESET.
      response.socket?.resetAndDestroy();
      return;
    case 'gzip':
    case 'deflate':
    case 'br': {
      const body = COMPRESSORS[fault.kind](normal.body);
      return send(response, encoded(normal, fault.kind, fault.cutAt === undefined ? body : body.subarray(0, fault.cutAt)));
    }
    case 'gzipTwice':
      return send(response, encoded(normal, 'gzip, gzip', gzipSync(gzipSync(normal.body))));
    case 'undecodable':
      return send(response, encoded(normal, fault.encoding ?? 'gzip', normal.body));
    case 'gzipBomb':
      return send(response, encoded(normal, 'gzip', gzipBomb(fault.inflatedBytes ?? DEFAULT_BOMB_BYTES)));
    case 'bytes': {
      const headers = { 'content-type': fault.contentType ?? 'application/json', ...(fault.contentEncoding === undefined ? {} : { 'content-encoding': fault.contentEncoding }) };
      return send(response, { status: fault.status ?? 200, headers, body: Buffer.from(fault.body) });
    }
    case 'endless':
      return sendEndlessly(response, normal, signal);
    case 'tls':
      // Not HTTP at all: what a client that speaks plain HTTP to a TLS port reads back.
      response.socket?.end(TLS_ALERT);
      return;
  }
}

/** `answer` with `body` sent as its `encoding`-compressed form. */
function encoded(answer: Answer, encoding: string, body: Buffer): Answer {
  return { status: answer.status, headers: { ...answer.headers, 'content-encoding': encoding, vary: 'Accept-Encoding' }, body };
}

/** A TLS record: alert, TLS 1.0, two bytes, fatal, protocol_version. */
const TLS_ALERT = Buffer.from([0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x46]);

const DEFAULT_BOMB_BYTES = 2 * 1024 ** 3;
const BOMB_MEMBER_BYTES = 1024 ** 2;

/**
 * A gzip body that inflates to `inflatedBytes`: gzip members one after another (a gzip stream may
 * hold several, and decoders join them), one compressed MiB of blanks repeated, so building a
 * 2 GiB bomb costs compressing one MiB, not two thousand.
 */
function gzipBomb(inflatedBytes: number): Buffer {
  const members = [gzipSync('[')];
  const blank = gzipSync(Buffer.alloc(BOMB_MEMBER_BYTES, ' '), { level: 9 });
  let left = inflatedBytes - 1;
  for (; left >= BOMB_MEMBER_BYTES; left -= BOMB_MEMBER_BYTES) members.push(blank);
  if (left > 0) members.push(gzipSync(Buffer.alloc(left, ' ')));
  return Buffer.concat(members);
}

/**
 * Sends headers and then `answer`'s elements again and again, as fast as the client reads
 * (waiting for the socket to drain), until the client goes away or the server closes.
 */
async function sendEndlessly(response: ServerResponse, answer: Answer, signal: AbortSignal): Promise<void> {
  response.writeHead(200, { 'content-type': 'application/json' });
  const text = answer.body.toString('utf8');
  // The elements without the closing bracket, so the body never becomes a complete array.
  const piece = Buffer.from(`${text.startsWith('[') ? text.slice(1, -1) : text},`.repeat(64));
  response.write('[');
  while (!response.destroyed && !signal.aborted) {
    if (!response.write(piece)) await drainedOrClosed(response, signal);
  }
}

/** Resolves when `response` may be written again, or never will be. */
function drainedOrClosed(response: ServerResponse, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done).off('close', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    response.on('drain', done).on('close', done);
    signal.addEventListener('abort', done);
  });
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
  wait: Wait,
): Promise<void> {
  // The full length is announced up front, so a client that gives up early sees a short body.
  response.writeHead(answer.status, withLength(answer));
  response.flushHeaders();
  for (const chunk of splitBody(answer.body, fault.chunks ?? DEFAULT_SLOW_CHUNKS)) {
    await wait(fault.chunkDelayMs, signal);
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

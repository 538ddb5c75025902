/**
 * Sending an answer over the wire, possibly the way a misbehaving server or network would:
 * late, in slow chunks, compressed, or cut off. Every wait listens to the server's abort
 * signal so that `close()` never waits for a fault to play out.
 */

import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { Answer } from './answer.js';
import { faultAnswer, isReplacingFault } from './fault-answers.js';
import type { Fault } from './fault.js';

/** The default number of pieces a `slowBody` fault splits the body into. */
export const DEFAULT_SLOW_CHUNKS = 4;

/**
 * Sends `normal`, or what `fault` makes of it. Resolves when the answer is sent, the connection
 * is dropped, or `signal` aborts (the server is closing and destroys the socket itself).
 */
export async function deliver(
  response: ServerResponse,
  normal: Answer,
  fault: Fault | undefined,
  signal: AbortSignal,
): Promise<void> {
  try {
    await deliverOrThrow(response, normal, fault, signal);
  } catch (error) {
    if (!signal.aborted) throw error;
  }
}

async function deliverOrThrow(
  response: ServerResponse,
  normal: Answer,
  fault: Fault | undefined,
  signal: AbortSignal,
): Promise<void> {
  if (fault === undefined) return send(response, normal);
  if (isReplacingFault(fault)) return send(response, faultAnswer(fault));
  switch (fault.kind) {
    case 'delay':
      await sleep(fault.ms, undefined, { signal });
      return send(response, normal);
    case 'slowBody':
      return sendSlowly(response, normal, {
        chunkDelayMs: fault.chunkDelayMs,
        chunks: fault.chunks ?? DEFAULT_SLOW_CHUNKS,
        signal,
      });
    case 'reset':
      return fault.afterBytes === undefined ? resetNow(response) : cutAfter(response, normal, fault.afterBytes);
    case 'gzip':
    case 'deflate':
    case 'br':
      return send(response, compress(normal, fault.kind));
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

async function sendSlowly(
  response: ServerResponse,
  answer: Answer,
  pacing: { chunkDelayMs: number; chunks: number; signal: AbortSignal },
): Promise<void> {
  // The full length is announced up front, so a client that gives up early sees a short body.
  response.writeHead(answer.status, withLength(answer));
  response.flushHeaders();
  for (const chunk of splitBody(answer.body, pacing.chunks)) {
    await sleep(pacing.chunkDelayMs, undefined, { signal: pacing.signal });
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

/** Drops the connection with a TCP reset before anything is sent: the client sees ECONNRESET. */
function resetNow(response: ServerResponse): void {
  const socket = response.socket;
  if (socket === null) return;
  socket.resetAndDestroy();
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

/** Compresses an answer's body with the given coding and labels it with `content-encoding`. */
export function compress(answer: Answer, coding: 'gzip' | 'deflate' | 'br'): Answer {
  const body =
    coding === 'gzip'
      ? gzipSync(answer.body)
      : coding === 'deflate'
        ? deflateSync(answer.body)
        : brotliCompressSync(answer.body);
  return {
    status: answer.status,
    headers: { ...answer.headers, 'content-encoding': coding, vary: 'Accept-Encoding' },
    body,
  };
}

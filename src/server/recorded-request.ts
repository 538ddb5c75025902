/**
 * The record of one request the reference server received, so tests can assert what a client
 * sent (which query parameters, which headers) without intercepting the client itself.
 */

import type { IncomingMessage } from 'node:http';

/** One request as the server saw it. */
export interface RecordedRequest {
  /** The HTTP method, e.g. `GET`. */
  method: string;
  /** The path without the query, e.g. `/rest/proto`. */
  path: string;
  /** The decoded query parameters; for a repeated parameter, the last value. */
  query: Record<string, string>;
  /** The request headers, lower-cased names, as Node parsed them. */
  headers: Record<string, string | string[] | undefined>;
}

/** Records an incoming request; the path and query are decoded from its target. */
export function recordRequest(request: IncomingMessage): RecordedRequest {
  // The base is only there to parse a request target, which is a path, not a URL.
  const target = new URL(request.url ?? '/', 'http://reference.invalid');
  return {
    method: request.method ?? 'GET',
    path: target.pathname,
    query: Object.fromEntries(target.searchParams),
    headers: { ...request.headers },
  };
}

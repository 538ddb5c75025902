/**
 * The request as the reference server saw it, and the answer a healthy server gives it, as a
 * value: status, headers, body. Computing the answer apart from sending it lets a delivery
 * (see `deliver` in `reference-server.ts`) reshape how exactly that answer goes out.
 */

import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { listingBody, parseListingQuery, selectElements } from './listing.js';
import type { MutableServerOptions } from './reference-server.js';
import { schemaBody } from './schemas.js';
import { framedBody, jsonBody, recordTypes, selectRecords } from './records.js';

/**
 * One request as the server saw it, so tests can assert what a client sent (which query
 * parameters, which headers) without intercepting the client itself.
 */
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

/** A complete HTTP answer, ready to be sent. */
export interface Answer {
  status: number;
  /** Response headers; `content-length` is added when sending. */
  headers: Record<string, string>;
  body: Buffer;
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

/** Sends a whole answer with an exact `content-length` (nothing when the connection is gone). */
export function sendAnswer(response: ServerResponse, answer: Answer): void {
  if (response.destroyed) return;
  response.writeHead(answer.status, { ...answer.headers, 'content-length': String(answer.body.length) });
  response.end(answer.body);
}

/** An answer with a UTF-8 text body. */
export function textAnswer(status: number, headers: Record<string, string>, text: string): Answer {
  return { status, headers, body: Buffer.from(text, 'utf8') };
}

/** An answer whose body is `value` as JSON. */
export function jsonAnswer(status: number, value: unknown): Answer {
  return textAnswer(status, { 'content-type': 'application/json' }, JSON.stringify(value));
}

/** A JSON error answer in the `{ "error": … }` shape real servers use. */
export function errorAnswer(status: number, error?: string): Answer {
  return jsonAnswer(status, { error: error ?? STATUS_CODES[status] ?? `status ${status}` });
}

/**
 * Answers a request the way a healthy server would: 404 off `GET /rest/proto` (and, with
 * records, `/rest/json` and `/rest/jsonf`), then auth (401), then query validation (400), then
 * the listing, or for `cmd=getschema` the `FieldDesc` elements of `msgType` (see `schemas.ts`),
 * or the records a `cmd=getmsgs` selects (see `records.ts`).
 */
export function answerRequest(request: RecordedRequest, options: MutableServerOptions): Answer {
  if (request.method === 'GET' && (request.path === '/rest/json' || request.path === '/rest/jsonf') && options.records !== undefined) {
    const denied = checkCredentials(request.query, options);
    if (denied !== undefined) return errorAnswer(401, denied);
    const types = recordTypes(options.listing, options.schemas);
    const elements = selectRecords(options.records, request.query, types);
    if (request.path === '/rest/json') return textAnswer(200, { 'content-type': 'application/json' }, jsonBody(elements));
    return textAnswer(200, { 'content-type': 'text/plain; charset=utf-8' }, framedBody(elements, types.numberOf));
  }
  if (request.method !== 'GET' || request.path !== '/rest/proto') return errorAnswer(404, 'not found');

  const denied = checkCredentials(request.query, options);
  if (denied !== undefined) return errorAnswer(401, denied);

  if (request.query['cmd'] === 'getschema') {
    const msgType = request.query['msgType'];
    if (msgType === undefined || msgType === '') return errorAnswer(400, 'getschema needs msgType');
    return jsonAnswer(200, schemaBody(msgType, options));
  }

  const parsed = parseListingQuery(request.query);
  if (!parsed.ok) return errorAnswer(400, parsed.error);

  return jsonAnswer(200, listingBody(selectElements(options.listing, parsed.query), options));
}

/**
 * Compares the request's credentials with the configured ones.
 * @returns the 401 error text, or undefined when the request may proceed
 */
function checkCredentials(query: Readonly<Record<string, string>>, options: MutableServerOptions): string | undefined {
  const expected = { apikey: options.apiKey, secret: options.secret };
  for (const [name, value] of Object.entries(expected)) {
    const received = query[name];
    if (value === undefined || received === value) continue;
    if (received === undefined) return `missing ${name}`;
    // Real servers echo what they received; that is what a client's redaction must survive.
    return `invalid ${name} ${received}`;
  }
  return undefined;
}

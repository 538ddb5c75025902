/**
 * The normal answer of the reference server to a request, as a value: status, headers, body.
 * Computing it apart from sending it lets a fault reshape the delivery (delay, compress, cut)
 * of exactly the answer the server would otherwise have given.
 */

import { STATUS_CODES } from 'node:http';
import { renderListingBody } from './listing-body.js';
import { parseListingQuery, selectElements } from './listing-query.js';
import type { MutableServerOptions } from './options.js';
import type { RecordedRequest } from './recorded-request.js';

/** A complete HTTP answer, ready to be sent. */
export interface Answer {
  status: number;
  /** Response headers; `content-length` is added when sending. */
  headers: Record<string, string>;
  body: Buffer;
}

/** The one path the service serves. */
export const LISTING_PATH = '/rest/proto';

/** Builds a JSON answer. */
export function jsonAnswer(status: number, value: unknown, headers: Record<string, string> = {}): Answer {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: Buffer.from(JSON.stringify(value), 'utf8'),
  };
}

/** A JSON error answer in the `{ "error": … }` shape real servers use. */
export function errorAnswer(status: number, error?: string): Answer {
  return jsonAnswer(status, { error: error ?? STATUS_CODES[status] ?? `status ${status}` });
}

/**
 * Answers a request the way a healthy server would: 404 off `GET /rest/proto`, then auth
 * (401), then query validation (400), then the listing.
 */
export function answerRequest(request: RecordedRequest, options: MutableServerOptions): Answer {
  if (request.method !== 'GET' || request.path !== LISTING_PATH) return errorAnswer(404, 'not found');

  const denied = checkCredentials(request.query, options);
  if (denied !== undefined) return errorAnswer(401, denied);

  const parsed = parseListingQuery(request.query);
  if (!parsed.ok) return errorAnswer(400, parsed.error);

  const elements = selectElements(options.listing, parsed.query);
  const body = renderListingBody({ elements, headerKey: options.headerKey, trailer: options.trailer });
  return { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(body, 'utf8') };
}

/**
 * Compares the request's credentials with the configured ones.
 * @returns the 401 error text, or undefined when the request may proceed
 */
function checkCredentials(query: Readonly<Record<string, string>>, options: MutableServerOptions): string | undefined {
  // Real servers echo what they received; that is what a client's redaction must survive.
  const echo = options.echoSecretsInErrors ?? true;
  const checks = [
    { name: 'apikey', expected: options.apiKey },
    { name: 'secret', expected: options.secret },
  ];
  for (const { name, expected } of checks) {
    if (expected === undefined) continue;
    const received = query[name];
    if (received === expected) continue;
    if (received === undefined) return `missing ${name}`;
    return echo ? `invalid ${name} ${received}` : `invalid ${name}`;
  }
  return undefined;
}

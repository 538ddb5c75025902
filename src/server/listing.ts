/**
 * The listing the reference server serves: read from a file (`serve --file`), narrowed by the
 * query parameters of `GET /rest/proto` (`msgType`, `where`, `limit`, parsed strictly so that a
 * client sending a malformed value gets the 400 a real server would give), and rendered as the
 * body. Pure and deterministic apart from the file read, so tests can compare bodies byte for byte.
 */

import { msg, own } from '../model/message.js';
import { readFile } from 'node:fs/promises';
import { ConfigError } from '../model/errors.js';
// The header type keys servers use; either one is renamed to the configured spelling.
import { HEADER_KEYS, type HeaderKey } from './header-keys.js';
import type { MutableServerOptions, TrailerOptions } from './reference-server.js';

/** One `field:op:value` clause of `where`. */
export interface WhereClause {
  /** A field of the element's `message`. */
  field: string;
  op: 'eq' | 'ne';
  /** Compared with the field's value as text (`1000`, `Yes`, `SystemData`). */
  value: string;
}

/** The narrowing a request asked for; absent parameters narrow nothing. */
export interface ListingQuery {
  /** Keep only the first `limit` matching elements. */
  limit?: number;
  /** Keep elements whose `message.name` equals it, or whose `message.mNum` does when numeric. */
  msgType?: string;
  /** Keep elements matching every clause. */
  where?: WhereClause[];
}

/** The bounds real servers put on `limit`. */
const LIMIT_MIN = 1;
const LIMIT_MAX = 10_000;

const FIELD_PATTERN = /^[A-Za-z_$][\w$]*$/;

/**
 * Reads and parses a JSON file holding the array of wire elements to serve.
 * @throws ConfigError when the file cannot be read, is not JSON, or is not a JSON array
 * @example const listing = await loadListingFile('examples/descriptors.json');
 */
export async function loadListingFile(path: string): Promise<unknown[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigError(msg`Cannot read listing file ${path}: ${reason(error)}.`, {
      hint: msg`Check the path; it is resolved from the working directory.`,
      cause: error,
    });
  }
  let parsed: unknown;
  try {
    // A BOM is common in files saved by Windows editors and is not part of the JSON.
    parsed = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch (error) {
    throw new ConfigError(msg`Listing file ${path} is not valid JSON: ${reason(error)}.`, {
      hint: msg`Save the body of a /rest/proto response as it was received.`,
      cause: error,
    });
  }
  if (!Array.isArray(parsed)) {
    throw new ConfigError(msg`Listing file ${path} holds ${own(describe(parsed))}, not a JSON array of listing elements.`, {
      hint: msg`The file must hold the array a /rest/proto response carries: [{ "header": …, "message": … }, …].`,
    });
  }
  return parsed;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message.replace(/\.$/, '') : String(error);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * Parses the narrowing parameters; every other parameter is ignored here.
 * @returns the query, or the text of the 400 error a client gets for it
 */
export function parseListingQuery(
  params: Readonly<Record<string, string>>,
): { ok: true; query: ListingQuery } | { ok: false; error: string } {
  const query: ListingQuery = {};

  const limit = params['limit'];
  if (limit !== undefined) {
    // Digits only: `1e3`, `10.0` or ` 5` are what a sloppy client sends, and must be caught.
    const value = /^\d+$/.test(limit) ? Number(limit) : Number.NaN;
    if (!(value >= LIMIT_MIN && value <= LIMIT_MAX)) {
      return { ok: false, error: `invalid limit "${limit}": must be an integer ${LIMIT_MIN}..${LIMIT_MAX}` };
    }
    query.limit = value;
  }

  if (params['msgType'] !== undefined) query.msgType = params['msgType'];

  const where = params['where'];
  if (where !== undefined) {
    const clauses = parseWhere(where);
    if (typeof clauses === 'string') return { ok: false, error: clauses };
    query.where = clauses;
  }

  return { ok: true, query };
}

/**
 * Parses `field:op:value[,field:op:value…]`. The value is everything after the second colon,
 * so values may hold colons; commas always separate clauses.
 * @returns the clauses, or an error text
 */
export function parseWhere(where: string): WhereClause[] | string {
  const clauses: WhereClause[] = [];
  for (const part of where.split(',')) {
    const [field = '', op, ...value] = part.split(':');
    if (op === undefined || value.length === 0) return `invalid where clause "${part}": expected field:op:value`;
    if (!FIELD_PATTERN.test(field)) return `invalid where clause "${part}": bad field name "${field}"`;
    if (op !== 'eq' && op !== 'ne') return `invalid where clause "${part}": unknown operator "${op}" (use eq or ne)`;
    clauses.push({ field, op, value: value.join(':') });
  }
  return clauses;
}

/** Applies `msgType`, then `where`, then `limit`, keeping the listing's order. */
export function selectElements(listing: readonly unknown[], query: ListingQuery): unknown[] {
  const selected = listing.filter((element) => {
    const message = messageOf(element);
    if (query.msgType !== undefined && !matchesMsgType(message, query.msgType)) return false;
    return (query.where ?? []).every((clause) => matchesClause(message, clause));
  });
  return selected.slice(0, query.limit);
}

function matchesMsgType(message: Record<string, unknown>, msgType: string): boolean {
  if (message['name'] === msgType) return true;
  if (!/^\d+$/.test(msgType)) return false;
  const mNum = message['mNum'];
  // Listings may carry mNum as a number or a numeric string; either matches.
  return (typeof mNum === 'number' || typeof mNum === 'string') && String(mNum) === String(Number(msgType));
}

function matchesClause(message: Record<string, unknown>, clause: WhereClause): boolean {
  const equal = Object.hasOwn(message, clause.field) && asText(message[clause.field]) === clause.value;
  return clause.op === 'eq' ? equal : !equal;
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}

/**
 * The element's `message` object, or an empty one: the listing may hold malformed elements on
 * purpose, and they still take part in filtering (they match `ne`, never `eq` or `msgType`).
 */
function messageOf(element: unknown): Record<string, unknown> {
  return isRecord(element) && isRecord(element['message']) ? element['message'] : {};
}

/**
 * The body of a listing answer: the selected elements with their header key spelled as asked,
 * plus the optional `QueryResult` trailer.
 */
export function listingBody(
  elements: readonly unknown[],
  options: Pick<MutableServerOptions, 'headerKey' | 'trailer'>,
): unknown[] {
  const { headerKey, trailer } = options;
  const body = headerKey === undefined ? [...elements] : elements.map((element) => withHeaderKey(element, headerKey));
  if (trailer) {
    body.push(buildTrailer(trailer, { descriptorsSent: elements.length, headerKey: headerKey ?? 'msgType' }));
  }
  return body;
}

/**
 * Returns the element with its header type key renamed to `headerKey`, keeping the key's
 * position. The input is never mutated (the listing is shared between requests); elements
 * without a recognisable header are returned as they are.
 */
export function withHeaderKey(element: unknown, headerKey: HeaderKey): unknown {
  if (!isRecord(element)) return element;
  const header = element['header'];
  if (!isRecord(header)) return element;
  const current = HEADER_KEYS.find((key) => key !== headerKey && Object.hasOwn(header, key));
  if (current === undefined) return element;
  const renamed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(header)) {
    // If both spellings are present, the configured one keeps its own value.
    if (key === current) {
      if (!Object.hasOwn(header, headerKey)) renamed[headerKey] = value;
    } else {
      renamed[key] = value;
    }
  }
  return { ...element, header: renamed };
}

/** Builds the `QueryResult` status element real servers append after the descriptors. */
export function buildTrailer(
  trailer: TrailerOptions,
  context: { descriptorsSent: number; headerKey: HeaderKey },
): Record<string, unknown> {
  const message: Record<string, unknown> = {
    numMessagesSent: trailer.numMessagesSent ?? context.descriptorsSent,
    // Always 0: a real elapsed time would make bodies differ between identical requests.
    queryElapsed: 0,
    result: trailer.result ?? 'Ok',
  };
  if (trailer.detail !== undefined) message['detail'] = trailer.detail;
  return { header: { [context.headerKey]: 'QueryResult' }, message };
}

/** True for a plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

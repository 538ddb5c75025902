/**
 * The query parameters of `GET /rest/proto` that narrow the listing (`msgType`, `where`,
 * `limit`), parsed strictly so that a client sending a malformed value gets the 400 a real
 * server would give, and applied to the raw wire elements.
 */

/** The comparison operators a `where` clause supports. */
export type WhereOperator = 'eq' | 'ne';

/** One `field:op:value` clause of `where`. */
export interface WhereClause {
  /** A field of the element's `message`. */
  field: string;
  op: WhereOperator;
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

/** A parsed query, or the text of the 400 error a client gets for it. */
export type ParsedListingQuery = { ok: true; query: ListingQuery } | { ok: false; error: string };

/** The bounds real servers put on `limit`. */
export const LIMIT_MIN = 1;
export const LIMIT_MAX = 10_000;

const FIELD_PATTERN = /^[A-Za-z_$][\w$]*$/;

/** Parses the narrowing parameters; every other parameter is ignored here. */
export function parseListingQuery(params: Readonly<Record<string, string>>): ParsedListingQuery {
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

  const msgType = params['msgType'];
  if (msgType !== undefined) query.msgType = msgType;

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
    const first = part.indexOf(':');
    const second = first < 0 ? -1 : part.indexOf(':', first + 1);
    if (second < 0) return `invalid where clause "${part}": expected field:op:value`;
    const field = part.slice(0, first);
    const op = part.slice(first + 1, second);
    if (!FIELD_PATTERN.test(field)) return `invalid where clause "${part}": bad field name "${field}"`;
    if (op !== 'eq' && op !== 'ne') return `invalid where clause "${part}": unknown operator "${op}" (use eq or ne)`;
    clauses.push({ field, op, value: part.slice(second + 1) });
  }
  return clauses;
}

/** Applies `msgType`, then `where`, then `limit`, keeping the listing's order. */
export function selectElements(listing: readonly unknown[], query: ListingQuery): unknown[] {
  let selected = listing.filter((element) => {
    const message = messageOf(element);
    if (query.msgType !== undefined && !matchesMsgType(message, query.msgType)) return false;
    return (query.where ?? []).every((clause) => matchesClause(message, clause));
  });
  if (query.limit !== undefined) selected = selected.slice(0, query.limit);
  return selected;
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
  if (isRecord(element) && isRecord(element['message'])) return element['message'];
  return {};
}

/** True for a plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

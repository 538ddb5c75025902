/**
 * The records runtime of schema-sync: reads the answers of the service's records queries and
 * checks each record against its message type. Generated beside the types (one module, shared by
 * every message type, importing nothing), loaded only by code that uses a parser or a schema.
 * The checks themselves are generated straight-line code in each message module; this module
 * holds what they share: the answer's reading (frames, exact 64-bit integers, `JSON.parse`),
 * issues with paths, drift findings, `RecordsError` and the Standard Schema objects.
 */

/** A place in an answer or a record: element indexes and property names. */
export type RecordPath = readonly (string | number)[];

/** One way a value does not match its type. */
export interface RecordIssue {
  /** Where: e.g. `[3, 'message', 'pkey', 'okey', 'dt']`. */
  readonly path: RecordPath;
  /** What the type wants there, e.g. `a string`. */
  readonly expected: string;
  /** What came, quoted short and made safe, e.g. `the number 5`. */
  readonly received: string;
  /** The whole issue in words: `[3].message.pkey.okey.dt: expected a string, got the number 5`. */
  readonly message: string;
}

/**
 * Something the service sends that this lockfile does not describe: a field it does not list
 * (`field`), an enum name outside the field's set (`name`), or a message type it does not list
 * (`type`). What the drift rules call a safe change: reported, never a failure (unless asked).
 */
export interface DriftFinding {
  readonly kind: 'field' | 'name' | 'type';
  /** The message type, as its header names it. */
  readonly type: string;
  /** The field, `group.field` inside a repeating group; absent for a `type` finding. */
  readonly field?: string;
  /** Where it was first seen. */
  readonly path: RecordPath;
  /** What was found and what to do (run `schema-sync pull`). */
  readonly message: string;
}

/** The status that ends an answer of the service. */
export interface QueryResultMessage {
  /** How many records the answer holds. */
  numMessagesSent?: number;
  /** Seconds the query took. */
  queryElapsed?: number;
  /** How the query ended: any `result` but `Ok` is an error, told in `detail`. */
  result: 'Ok' | 'Error' | 'AuthError' | 'TokenError' | 'MLinkError' | 'TransportError';
  /** What went wrong, with a `result` other than `Ok`. */
  detail?: string;
}

/** Options of `parseRecords` and `safeParseRecords`. */
export interface ParseRecordsOptions {
  /**
   * Told of each drift finding, once per message type and field (a call's findings are also in
   * its result's `drift`). Without it, each finding is written once to `console.warn`.
   */
  onDrift?: ((finding: DriftFinding) => void) | undefined;
  /** `error`: a drift finding is an issue (kind `invalid`) rather than a report. @default "report" */
  drift?: 'report' | 'error' | undefined;
  /**
   * With `int64: number`, a `Long`/`ULong` value beyond ±2^53 is an issue, because `JSON.parse`
   * has rounded it; `true` lets the rounded number through. @default false
   */
  roundInt64?: boolean | undefined;
  /** How many issues an error lists. @default 50 */
  maxIssues?: number | undefined;
}

/**
 * Why reading an answer (or asking for one) failed: `invalid`, `failed`, `truncated` (the answer),
 * `status` (an HTTP status other than 200), `network` (no answer), `query` (a query the grammar
 * cannot write).
 */
export type RecordsErrorKind = 'invalid' | 'failed' | 'truncated' | 'status' | 'network' | 'query';

/** An answer that could not be read: what went wrong (`kind`), where (`issues`), and the `QueryResult` if there was one. */
export class RecordsError extends Error {
  override readonly name: 'RecordsError' = 'RecordsError';
  /**
   * `invalid`: not JSON, not an answer, or a record that does not match its type; `failed`: the
   * `QueryResult` says the query failed; `truncated`: the answer ends early; `status`: the service
   * answered with an HTTP status other than 200 (`status`); `network`: no answer came; `query`: the
   * query cannot be written in the service's grammar.
   */
  readonly kind: RecordsErrorKind;
  /** Each problem with its path (up to `maxIssues`). */
  readonly issues: readonly RecordIssue[];
  /** The answer's `QueryResult`, when it has one. */
  readonly result: QueryResultMessage | undefined;
  /** The HTTP status of an answer other than 200 (kind `status`). */
  readonly status: number | undefined;

  constructor(kind: RecordsErrorKind, message: string, details: { issues?: readonly RecordIssue[]; result?: QueryResultMessage | undefined; status?: number | undefined } = {}) {
    super(message);
    this.kind = kind;
    this.issues = details.issues ?? [];
    this.result = details.result;
    this.status = details.status;
  }
}

/** What a records answer holds once read: its records, its `QueryResult` and the drift found. */
export interface RecordsAnswerOf<R> {
  readonly records: R[];
  readonly result: QueryResultMessage;
  readonly drift: readonly DriftFinding[];
}

/** The result of a `safeParse…`: the data, or the error. */
export type SafeParseResult<T> = { readonly success: true; readonly data: T } | { readonly success: false; readonly error: RecordsError };

/** How a generated check reads a record: the value, where it is, and the checker that collects issues. */
export type RecordCheck = (value: any, path: RecordPath, checker: Checker) => unknown;

/** A Standard Schema v1 result. */
export type StandardResult<T> = { readonly value: T; readonly issues?: undefined } | { readonly issues: readonly { readonly message: string; readonly path: RecordPath }[] };

/**
 * The validator of one record `message` (already parsed) of a message type: Standard Schema v1
 * (`~standard`), so it plugs into any library that accepts one, and `parse` / `safeParse`.
 */
export interface RecordSchema<T> {
  /** The message type's name, as the service sends it. */
  readonly type: string;
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'schema-sync';
    readonly validate: (value: unknown) => StandardResult<T>;
    readonly types?: { readonly input: unknown; readonly output: T } | undefined;
  };
  /** The record, or a `RecordsError` of kind `invalid`. The value is not changed: the record is a copy where it differs. */
  parse(value: unknown, options?: ParseRecordsOptions): T;
  safeParse(value: unknown, options?: ParseRecordsOptions): SafeParseResult<T>;
  /** The generated check (used by `parseRecords`). */
  readonly '~check': RecordCheck;
  /** Whether its check reads 64-bit integers exactly from the text (int64 `bigint` or `string`). */
  readonly '~exact': boolean;
}

/** The hint of every drift finding. */
const PULL_HINT = 'run `schema-sync pull` to bring the lockfile and types up to date';

/** Characters a quoted value never shows raw: controls, bidi controls, invisibles. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;

/**
 * Writes a drift finding to `console.warn` where there is one. Reached through `globalThis`: a
 * project's types need not declare `console` (no DOM or Node.js types).
 */
function warn(message: string): void {
  const host = globalThis as { console?: { warn?: (text: string) => void } };
  host.console?.warn?.(`schema-sync records: ${message}`);
}

/** A value quoted short and made safe, with what it is: `the number 5`, `the string "abc"`. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return `the string ${quote(value)}`;
    case 'number':
    case 'boolean':
      return `the ${typeof value} ${String(value)}`;
    case 'bigint':
      return `the bigint ${String(value)}`;
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}

/** A string as a JSON literal, cut to 40 characters and with every unsafe character escaped. */
function quote(text: string): string {
  const cut = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return JSON.stringify(cut).replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A path as text: `[3].message.pkey.okey.dt`; a key that is not a plain name as `["a b"]`. */
export function pathText(path: RecordPath): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) text += text === '' ? key : `.${key}`;
    else text += `[${quote(key)}]`;
  }
  return text === '' ? '(the value)' : text;
}

/** Whether a value is a plain object (not null, not an array). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Collects the issues and drift findings of one reading, and converts what the text kept exact
 * (64-bit integers, see {@link protectIntegers}). Generated checks call it for everything but
 * the fast, common case of a value of the right type.
 */
export class Checker {
  /** The issues, up to `max`. */
  readonly issues: RecordIssue[] = [];
  /** How many issues there were in all. */
  count: number = 0;
  /** The drift findings, once per type, kind and field. */
  readonly drift: DriftFinding[] = [];
  /** The message type being checked (drift findings name it). */
  type: string = '';
  private readonly seen: Set<string> = new Set();
  private readonly max: number;
  private readonly marker: string | undefined;
  private readonly options: ParseRecordsOptions;

  /**
   * @param marker - the prefix of the strings that stand for integers kept exact from the text, if any
   */
  constructor(options: ParseRecordsOptions | undefined, marker: string | undefined) {
    this.options = options ?? {};
    this.max = this.options.maxIssues ?? 50;
    this.marker = marker;
  }

  /** Whether a value is a plain object (not null, not an array); not a type guard, so a check's `any` stays `any`. */
  isObject(value: unknown): boolean {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  }

  /** Whether a value is an array (not a type guard, as `isObject`). */
  isArray(value: unknown): boolean {
    return Array.isArray(value);
  }

  /** An own property of a record (`__proto__`, which a plain read would take from the prototype). */
  own(value: Record<string, unknown>, key: string): unknown {
    return Object.prototype.hasOwnProperty.call(value, key) ? value[key] : undefined;
  }

  /** The default of a `Long` key field typed `bigint`: 0. */
  zero(): bigint {
    return BigInt(0);
  }

  /** Whether another issue would not be listed (a reading may stop early). */
  get full(): boolean {
    return this.count >= this.max;
  }

  /** Records an issue at `path` + `key`. */
  bad(path: RecordPath, key: string | number | undefined, expected: string, value: unknown): undefined {
    this.count++;
    if (this.issues.length < this.max) {
      const at = key === undefined ? path : [...path, key];
      const received = describe(value);
      this.issues.push({ path: at, expected, received, message: `${pathText(at)}: expected ${expected}, got ${received}` });
    }
    return undefined;
  }

  /** Records a drift finding, once per type, kind and field. */
  private found(kind: DriftFinding['kind'], path: RecordPath, field: string | undefined, what: string): void {
    const id = `${kind}\u0000${this.type}\u0000${field ?? ''}`;
    if (this.options.drift === 'error') {
      this.bad(path, undefined, kind === 'name' ? 'a name of the set' : kind === 'field' ? 'no such field' : 'a listed message type', what);
      return;
    }
    if (this.seen.has(id)) return;
    this.seen.add(id);
    const subject = kind === 'type' ? `message type ${quote(this.type)}` : `field ${quote(field ?? '')} of ${quote(this.type)}`;
    const message =
      kind === 'name'
        ? `${subject} holds ${describe(what).replace('the string ', 'the name ')}, which the lockfile does not list (at ${pathText(path)}): ${PULL_HINT}`
        : `${subject} is not in the lockfile (at ${pathText(path)}); ${kind === 'type' ? 'its records are left out' : 'its values are left out of the records'}: ${PULL_HINT}`;
    const finding: DriftFinding = field === undefined ? { kind, type: this.type, path, message } : { kind, type: this.type, field, path, message };
    this.drift.push(finding);
    const onDrift = this.options.onDrift;
    if (onDrift !== undefined) onDrift(finding);
    else warn(message);
  }

  /** A message type the lockfile does not list. */
  unknownType(path: RecordPath): void {
    this.found('type', path, undefined, this.type);
  }

  /** A value that is not a number: an integer kept exact from the text becomes its number, anything else is an issue. */
  num(value: unknown, path: RecordPath, key: string): unknown {
    const digits = this.digits(value);
    return digits === undefined ? this.bad(path, key, 'a number', value) : Number(digits);
  }

  /** An integer in `min..max`. */
  int(value: unknown, path: RecordPath, key: string, min: number, max: number): unknown {
    const number = typeof value === 'number' ? value : this.digits(value) === undefined ? undefined : Number(this.digits(value));
    if (number === undefined || !Number.isInteger(number) || number < min || number > max) return this.bad(path, key, `an integer from ${min} to ${max}`, value);
    return number;
  }

  /** A `Long` or `ULong` typed `number`: a safe integer; beyond ±2^53 an issue unless `roundInt64`. */
  longNumber(value: unknown, path: RecordPath, key: string): unknown {
    if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
    const digits = this.digits(value);
    const number = typeof value === 'number' ? value : digits === undefined ? undefined : Number(digits);
    if (number !== undefined && Number.isInteger(number) && this.options.roundInt64 === true) return number;
    if (number !== undefined && Number.isInteger(number)) {
      return this.bad(path, key, 'an integer within ±2^53, as int64 "number" types it (pull with --int64 bigint or string to keep such values exact, or pass roundInt64: true to take them rounded)', value);
    }
    return this.bad(path, key, 'an integer', value);
  }

  /** A `Long` or `ULong` typed `bigint`: exact, from the text's digits where it was beyond 2^53. */
  longBigint(value: unknown, path: RecordPath, key: string): unknown {
    if (typeof value === 'bigint') return value;
    if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
    const digits = this.digits(value) ?? (this.marker === undefined && typeof value === 'string' && /^-?\d+$/.test(value) ? value : undefined);
    return digits === undefined ? this.bad(path, key, 'an integer (exact: int64 bigint)', value) : BigInt(digits);
  }

  /** A `Long` or `ULong` typed `string`: its digits, exact, from the text where it was beyond 2^53. */
  longString(value: unknown, path: RecordPath, key: string): unknown {
    if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
    if (typeof value === 'bigint') return String(value);
    const digits = this.digits(value) ?? (this.marker === undefined && typeof value === 'string' && /^-?\d+$/.test(value) ? value : undefined);
    return digits === undefined ? this.bad(path, key, 'an integer (its digits: int64 string)', value) : digits;
  }

  /** The digits of an integer kept exact from the text (a marked string), else undefined. */
  private digits(value: unknown): string | undefined {
    const marker = this.marker;
    return marker !== undefined && typeof value === 'string' && value.startsWith(marker) ? value.slice(marker.length) : undefined;
  }

  /**
   * An enum value not in its set: a name is drift, kept as the unknown-name case of the field's
   * type (`{ unknown: name }`, which no name of the set compares equal to); an unknown-name case
   * given back (a record read before) is taken as it is; anything else is an issue.
   */
  name(value: unknown, path: RecordPath, key: string, field: string): unknown {
    if (typeof value === 'string') {
      this.found('name', [...path, key], field, value);
      return { unknown: value };
    }
    if (isObject(value) && typeof value['unknown'] === 'string' && Object.keys(value).length === 1) return value;
    return this.bad(path, key, 'an enum name', value);
  }

  /** A `TimeSpan`: text or a number. */
  span(value: unknown, path: RecordPath, key: string): unknown {
    if (typeof value === 'number') return value;
    const digits = this.digits(value);
    if (digits !== undefined) return Number(digits);
    return typeof value === 'string' ? value : this.bad(path, key, 'text or a number', value);
  }

  /** A value of a field whose type is not known: let through, integers kept exact from the text as numbers. */
  any(value: unknown): unknown {
    if (this.marker === undefined) return value;
    const digits = this.digits(value);
    if (digits !== undefined) return Number(digits);
    if (typeof value === 'object' && value !== null) {
      const object = value as Record<string, unknown>;
      for (const key of Object.keys(object)) object[key] = this.any(object[key]);
    }
    return value;
  }

  /**
   * A field the type does not list: drift, left out of the record.
   * @param group - the repeating group, for the finding's field name
   */
  extra(record: Record<string, unknown>, path: RecordPath, key: string, group?: string): void {
    this.found('field', [...path, key], group === undefined ? key : `${group}.${key}`, key);
    delete record[key];
  }

  /** A key field object: `TickerKey` (1), `ExpiryKey` (2) or `OptionKey` (3). */
  key(value: unknown, path: RecordPath, key: string, kind: 1 | 2 | 3): void {
    if (!isObject(value)) {
      this.bad(path, key, kind === 1 ? 'a ticker key { at, ts, tk }' : kind === 2 ? 'an expiry key { at, ts, tk, dt }' : 'an option key { at, ts, tk, dt, xx, cp }', value);
      return;
    }
    const at = [...path, key];
    for (const part of kind === 1 ? TICKER : kind === 2 ? EXPIRY : OPTION) {
      const v = value[part];
      if (part === 'xx') {
        if (typeof v !== 'number') value[part] = this.num(v, at, part);
      } else if (part === 'cp') {
        if (v !== 'Call' && v !== 'Put') this.bad(at, part, '"Call" or "Put"', v);
      } else if (typeof v !== 'string') this.bad(at, part, 'a string', v);
    }
  }

  /** A missing key field. */
  missing(path: RecordPath, key: string, expected: string): void {
    this.bad(path, key, expected, undefined);
  }
}

const TICKER = ['at', 'ts', 'tk'] as const;
const EXPIRY = ['at', 'ts', 'tk', 'dt'] as const;
const OPTION = ['at', 'ts', 'tk', 'dt', 'xx', 'cp'] as const;

/**
 * The text with every integer literal of 16 digits or more (those a `number` may round) written
 * as a string, the marker then its digits, so that `JSON.parse` keeps them exact; and the marker.
 * The marker is a character no string of the text starts with: one that never follows a quote
 * in the text and is written by no escape in it (JSON writes it only raw or as `\u00XX`), else
 * `\u0000`, as many as it takes to appear nowhere (a string holds it only escaped). A number
 * follows `:`, `,` or `[`; such text inside a string would be cut by the quotes put around it,
 * which no JSON parses: then `exact` tells strings apart.
 */
export function protectIntegers(text: string, exact: boolean): { text: string; marker: string } {
  let marker: string | undefined;
  const escapes = text.includes('\\u00');
  for (const c of MARKERS) {
    if (!text.includes(`"${c}`) && !(escapes && text.toLowerCase().includes(`\\u00${c.charCodeAt(0).toString(16)}`))) {
      marker = c;
      break;
    }
  }
  let written = marker;
  if (marker === undefined) {
    written = '\\u0000';
    while (text.includes(written)) written += '\\u0000';
    marker = '\u0000'.repeat(written.length / 6);
  }
  // A number: after `:`, `,` or `[` and blanks; an integer: no fraction or exponent after it.
  const integers = /([:,[]\s*)(-?\d{16,})(?![.eE\d])/g;
  if (!exact) return { text: text.replace(integers, `$1"${written}$2"`), marker };
  const quoted = stringRanges(text);
  const protectedText = text.replace(integers, (whole: string, before: string, digits: string, at: number) => (inRanges(quoted, at + before.length) ? whole : `${before}"${written}${digits}"`));
  return { text: protectedText, marker };
}

/** The characters {@link protectIntegers} tries as its marker, in order. */
const MARKERS: readonly string[] = ['~', '^', '|', '`', '#'];

/** Where each string of a JSON text starts and ends (offsets, in pairs). */
function stringRanges(text: string): number[] {
  const ranges: number[] = [];
  let at = text.indexOf('"');
  while (at !== -1) {
    let end = text.indexOf('"', at + 1);
    while (end !== -1 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
    if (end === -1) end = text.length;
    ranges.push(at, end);
    at = text.indexOf('"', end + 1);
  }
  return ranges;
}

function isEscaped(text: string, at: number): boolean {
  let n = 0;
  while (text.charCodeAt(at - 1 - n) === 92) n++;
  return n % 2 === 1;
}

function inRanges(ranges: readonly number[], at: number): boolean {
  let low = 0;
  let high = ranges.length / 2 - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (at < ranges[2 * mid]!) high = mid - 1;
    else if (at > ranges[2 * mid + 1]!) low = mid + 1;
    else return true;
  }
  return false;
}

/** The `result` names of a `QueryResult`. */
const RESULTS: readonly string[] = ['Ok', 'Error', 'AuthError', 'TokenError', 'MLinkError', 'TransportError'];

/** Checks a `QueryResult` message (the schema of a listed message type named `QueryResult` too). */
export function checkQueryResult(value: any, path: RecordPath, c: Checker): QueryResultMessage | undefined {
  if (!isObject(value)) return c.bad(path, undefined, 'a QueryResult message', value);
  for (const key of ['numMessagesSent', 'queryElapsed'] as const) {
    const v = value[key];
    if (v !== undefined && typeof v !== 'number') value[key] = c.num(v, path, key);
  }
  if (typeof value['result'] !== 'string') c.bad(path, 'result', 'a result name (Ok, Error, …)', value['result']);
  if (value['detail'] !== undefined && typeof value['detail'] !== 'string') c.bad(path, 'detail', 'a string', value['detail']);
  return value as unknown as QueryResultMessage;
}

/** The frame header of a `rest/jsonf` element: CR LF `J`, the message number (5 digits), the length (6). */
const FRAME = /^\r\nJ(\d{5})(\d{6})/;

/**
 * The elements of a framed (`rest/jsonf`) answer as one JSON array text, or the error that the
 * frames show (an element shorter than its frame says: truncated).
 */
function unframe(text: string): string | RecordsError {
  const parts: string[] = [];
  let at = 0;
  while (at < text.length) {
    const header = FRAME.exec(text.slice(at, at + 14));
    if (header === null) {
      if (text.slice(at).trim() === '') break;
      return new RecordsError('invalid', `The framed answer has no frame header at offset ${at} (a frame is CR LF "J", 5 digits of message number and 6 of length).`, {
        issues: [{ path: [parts.length], expected: 'a frame header', received: describe(text.slice(at, at + 14)), message: `[${parts.length}]: expected a frame header` }],
      });
    }
    const next = text.indexOf('\r\nJ', at + 14);
    const body = text.slice(at + 14, next === -1 ? text.length : next);
    const length = Number(header[2]);
    if (body.length < length && utf8Length(body) < length) {
      return new RecordsError('truncated', `The answer is cut short: element ${parts.length} holds ${utf8Length(body)} of the ${length} bytes its frame says.`);
    }
    parts.push(body);
    at = next === -1 ? text.length : next;
  }
  return `[${parts.join(',')}]`;
}

/** The UTF-8 length of a text. */
function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) n += 1;
    else if (code < 0x800) n += 2;
    else if (code >= 0xd800 && code < 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** The answer's text parsed, or the error (a cut text is `truncated`, anything else not JSON `invalid`). */
function parseJson(text: string): unknown[] | RecordsError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const position = /position (\d+)/.exec(String(error instanceof Error ? error.message : error));
    const at = position === null ? '' : ` at offset ${position[1]}`;
    if (!text.trimEnd().endsWith(']')) return new RecordsError('truncated', `The answer is cut short: its JSON ends before its closing "]"${at}.`);
    return new RecordsError('invalid', `The answer is not JSON${at}.`, { issues: [{ path: [], expected: 'JSON', received: 'text that is not JSON', message: `expected JSON${at}` }] });
  }
  if (!Array.isArray(parsed)) {
    return new RecordsError('invalid', `The answer is not an array of elements: it is ${describe(parsed)}.`, {
      issues: [{ path: [], expected: 'an array of elements', received: describe(parsed), message: `expected an array of elements, got ${describe(parsed)}` }],
    });
  }
  return parsed;
}

/** The type an element's header names (`mTyp`, or `msgType` as some deployments write it), or undefined. */
function headerType(element: unknown): string | undefined {
  if (!isObject(element)) return undefined;
  const header = element['header'];
  if (!isObject(header)) return undefined;
  const type = header['mTyp'] ?? header['msgType'];
  if (typeof type !== 'string') return undefined;
  if (header['mTyp'] === undefined) header['mTyp'] = type;
  return type;
}

/** The error of a reading with issues: kind `invalid`, its first issues in the message. */
function invalid(c: Checker, result?: QueryResultMessage): RecordsError {
  const more = c.count > c.issues.length ? ` (and ${c.count - c.issues.length} more)` : '';
  const shown = c.issues.slice(0, 3).map((issue) => issue.message).join('; ');
  return new RecordsError('invalid', `The answer does not match its types: ${c.count} ${c.count === 1 ? 'issue' : 'issues'}${more}: ${shown}${c.issues.length > 3 ? '; …' : ''}`, {
    issues: c.issues,
    ...(result === undefined ? {} : { result }),
  });
}

/**
 * Reads a records answer (`rest/json`, or framed `rest/jsonf`): its elements checked by the
 * schema of the type their header names, its `QueryResult` required last. Big integers are read
 * exactly from the text when a schema asks for it (int64 `bigint` or `string`).
 * @param schemas - the record schemas by message type name
 */
export function parseAnswer(text: string, schemas: { readonly [name: string]: RecordSchema<unknown> }, options?: ParseRecordsOptions): SafeParseResult<RecordsAnswerOf<unknown>> {
  const fail = (error: RecordsError): SafeParseResult<never> => ({ success: false, error });
  if (typeof text !== 'string') return fail(new RecordsError('invalid', `The answer is not text: it is ${describe(text)}.`));
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const json = body.startsWith('\r\nJ') ? unframe(body) : body;
  if (typeof json !== 'string') return fail(json);
  let marker: string | undefined;
  let elements: unknown[] | RecordsError;
  let exact = false;
  for (const name in schemas) if (schemas[name]!['~exact']) exact = true;
  if (!exact) elements = parseJson(json);
  else {
    const quick = protectIntegers(json, false);
    elements = parseJson(quick.text);
    if (elements instanceof RecordsError && parseJson(json) instanceof Array) {
      // A long run of digits inside a string: protect again, telling strings apart.
      const exact = protectIntegers(json, true);
      elements = parseJson(exact.text);
      marker = exact.marker;
    } else marker = quick.marker;
    if (elements instanceof RecordsError) elements = parseJson(json);
  }
  if (elements instanceof RecordsError) return fail(elements);
  const c = new Checker(options, marker);
  const last = elements.length - 1;
  if (last < 0 || headerType(elements[last]) !== 'QueryResult') {
    return fail(new RecordsError('truncated', `The answer is cut short: it does not end with a QueryResult (${elements.length} ${elements.length === 1 ? 'element' : 'elements'} read).`));
  }
  const result = checkQueryResult((elements[last] as { message?: unknown }).message, [last, 'message'], c);
  const records: unknown[] = [];
  for (let i = 0; i < last && !c.full; i++) {
    const element = elements[i] as { header: unknown; message: unknown };
    const type = headerType(element);
    if (type === undefined) {
      c.bad([i], 'header', 'an element { header: { mTyp }, message }', isObject(element) ? element.header : element);
      continue;
    }
    c.type = type;
    if (type === 'QueryResult') {
      c.bad([i, 'header'], 'mTyp', 'a record (a QueryResult ends the answer)', type);
      continue;
    }
    const schema = Object.prototype.hasOwnProperty.call(schemas, type) ? schemas[type] : undefined;
    if (schema === undefined) {
      c.unknownType([i]);
      continue;
    }
    const path = [i, 'message'];
    const checked = schema['~check'](element.message, path, c);
    if (checked !== undefined) records.push(element);
  }
  if (c.count > 0) return fail(invalid(c, result));
  const status = result!;
  if (status.result !== 'Ok') {
    const name = RESULTS.includes(status.result) ? status.result : quote(status.result);
    const detail = status.detail === undefined ? '' : `: ${quote(status.detail)}`;
    return fail(new RecordsError('failed', `The query failed: QueryResult ${name}${detail}.`, { result: status }));
  }
  if (status.numMessagesSent !== undefined && status.numMessagesSent > last) {
    return fail(new RecordsError('truncated', `The answer is cut short: its QueryResult says ${status.numMessagesSent} records were sent, it holds ${last}.`, { result: status }));
  }
  return { success: true, data: { records, result: status, drift: c.drift } };
}

/** The data of a result, or its error thrown. */
export function orThrow<T>(result: SafeParseResult<T>): T {
  if (result.success) return result.data;
  throw result.error;
}

/** A copy of a JSON-like value (objects and arrays copied, anything else as it is). */
function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = copy(value[key]);
  return out;
}

/**
 * A message type's check table, as its module writes it (JSON text, which costs a consumer's
 * compiler nothing to check, where code a field costs it a flow analysis each): `f` the record's
 * fields, `k` its key's, `g` its repeating groups' (name and fields), `e` its enum sets (each
 * distinct one once). A field is `[name, kind]`, `[name, kind, arg]` or, in `k`,
 * `[name, kind, arg, default]`: the value a key field left out at its default takes (none: an
 * issue). Kinds: see {@link FIELD}.
 */
export interface CheckTable {
  readonly f: readonly CheckField[];
  readonly k?: readonly CheckField[];
  readonly g?: readonly (readonly [string, readonly CheckField[]])[];
  readonly e?: readonly (readonly string[])[];
}

/** One field of a {@link CheckTable}. */
export type CheckField = readonly [name: string, kind: number, arg?: unknown, fallback?: unknown];

/**
 * The kinds of field a check table names, and how a present value `v` is checked: `ANY` let
 * through; `TEXT` a string; `DOUBLE` a number; `INT`, `UINT` 32-bit integers, `RANGE` an integer
 * in `arg` (`[min, max]`); `LONG_NUMBER`, `LONG_BIGINT`, `LONG_STRING` a 64-bit integer as
 * `int64` types it; `ENUM` a name of the set `arg` (else drift), `ENUM_ANY` a name of a set not
 * listed; `FLAG` flag names; `SPAN` a time span; `KEY` a key object of kind `arg` (1 ticker, 2
 * expiry, 3 option); `GROUP` an array of the items of group `arg`; `PKEY` the record's key.
 */
export const FIELD = {
  ANY: 0,
  TEXT: 1,
  DOUBLE: 2,
  INT: 3,
  UINT: 4,
  RANGE: 5,
  LONG_NUMBER: 6,
  LONG_BIGINT: 7,
  LONG_STRING: 8,
  ENUM: 9,
  ENUM_ANY: 10,
  FLAG: 11,
  SPAN: 12,
  KEY: 13,
  GROUP: 14,
  PKEY: 15,
} as const;

/** A field of a check function: what to do with a present value of it. */
interface FieldStep {
  readonly kind: number;
  readonly arg: unknown;
  readonly min: number;
  readonly max: number;
  readonly names: ReadonlySet<unknown> | undefined;
  /** The field as drift findings name it: `group.field` in a group. */
  readonly path: string;
}

/** The checks of a message type's records, made from its table (once, at its first record). */
export function tableCheck(type: string, text: string): RecordCheck {
  const table = JSON.parse(text) as CheckTable;
  const sets = (table.e ?? []).map((names) => new Set<unknown>(names));
  const shown = JSON.stringify(type).slice(1, -1);
  const groups: RecordCheck[] = [];
  const key = table.k === undefined ? undefined : fieldsCheck(table.k, `the key of ${shown}`, undefined, true);
  const top = fieldsCheck(table.f, `a record of ${shown}`, undefined, false);
  for (const [group, fields] of table.g ?? []) groups.push(fieldsCheck(fields, `an entry of ${JSON.stringify(group).slice(1, -1)}`, group, false));
  return top;

  function fieldsCheck(fields: readonly CheckField[], expected: string, group: string | undefined, isKey: boolean): RecordCheck {
    const steps = new Map<string, FieldStep>();
    for (const [name, kind, arg] of fields) {
      const range = Array.isArray(arg) ? (arg as readonly number[]) : [0, 0];
      const names = kind === FIELD.ENUM ? sets[arg as number] : undefined;
      steps.set(name, { kind, arg, min: range[0]!, max: range[1]!, names, path: group === undefined ? name : `${group}.${name}` });
    }
    return (m: any, p: RecordPath, c: Checker): unknown => {
      if (!c.isObject(m)) return c.bad(p, undefined, expected, m);
      for (const k in m) {
        const s = steps.get(k);
        if (s === undefined) {
          c.extra(m, p, k, group);
          continue;
        }
        const v = m[k];
        switch (s.kind) {
          case FIELD.TEXT:
            if (typeof v !== 'string') c.bad(p, k, 'a string', v);
            break;
          case FIELD.DOUBLE:
            if (typeof v !== 'number') m[k] = c.num(v, p, k);
            break;
          case FIELD.INT:
            if (typeof v !== 'number' || (v | 0) !== v) m[k] = c.int(v, p, k, -2147483648, 2147483647);
            break;
          case FIELD.UINT:
            if (typeof v !== 'number' || v >>> 0 !== v) m[k] = c.int(v, p, k, 0, 4294967295);
            break;
          case FIELD.RANGE:
            if (typeof v !== 'number' || !(v >= s.min && v <= s.max && v % 1 === 0)) m[k] = c.int(v, p, k, s.min, s.max);
            break;
          case FIELD.LONG_NUMBER:
            if (typeof v !== 'number' || !(v <= 9007199254740991 && v >= -9007199254740991 && v % 1 === 0)) m[k] = c.longNumber(v, p, k);
            break;
          case FIELD.LONG_BIGINT:
            m[k] = c.longBigint(v, p, k);
            break;
          case FIELD.LONG_STRING:
            m[k] = c.longString(v, p, k);
            break;
          case FIELD.ENUM:
            if (!s.names!.has(v)) m[k] = c.name(v, p, k, s.path);
            break;
          case FIELD.ENUM_ANY:
            if (typeof v !== 'string') c.bad(p, k, 'an enum name', v);
            break;
          case FIELD.FLAG:
            if (typeof v !== 'string') c.bad(p, k, 'a flag name', v);
            break;
          case FIELD.SPAN:
            if (typeof v !== 'number') m[k] = c.span(v, p, k);
            break;
          case FIELD.KEY:
            c.key(v, p, k, s.arg as 1 | 2 | 3);
            break;
          case FIELD.GROUP:
            if (!c.isArray(v)) c.bad(p, k, 'an array', v);
            else for (let i = 0; i < v.length; i++) groups[s.arg as number]!(v[i], [...p, k, i], c);
            break;
          case FIELD.PKEY:
            key!(v, [...p, k], c);
            break;
          default:
            m[k] = c.any(v);
        }
      }
      // A key field at its default value is left out as any other: it is given its default.
      if (isKey) {
        for (const [name, kind, , fallback] of fields) {
          if (c.own(m, name) !== undefined) continue;
          if (fallback === undefined) c.bad(p, name, 'a key field', undefined);
          else m[name] = kind === FIELD.LONG_BIGINT ? c.zero() : fallback;
        }
      }
      return m;
    };
  }
}

/**
 * The schema of one message type's records, from its check table (or, for the `QueryResult`, its
 * check). Validating never changes the value given: the check reads a copy.
 */
export function recordSchema<T>(type: string, table: RecordCheck | string, exact: boolean = false): RecordSchema<T> {
  // A table is read at the first record: importing a module reads nothing.
  let made: RecordCheck | undefined = typeof table === 'string' ? undefined : table;
  const check: RecordCheck = (value, path, c) => (made ??= tableCheck(type, table as string))(value, path, c);
  const safeParse = (value: unknown, options?: ParseRecordsOptions): SafeParseResult<T> => {
    const c = new Checker(options, undefined);
    c.type = type;
    const out = check(copy(value), [], c);
    return c.count > 0 ? { success: false, error: invalid(c) } : { success: true, data: out as T };
  };
  // Standard Schema has no options: its drift findings are told once per field of this type.
  const told = new Set<string>();
  const onDrift = (finding: DriftFinding): void => {
    const id = `${finding.kind}\u0000${finding.field ?? ''}`;
    if (told.has(id)) return;
    told.add(id);
    warn(finding.message);
  };
  return {
    type,
    '~standard': {
      version: 1,
      vendor: 'schema-sync',
      validate: (value: unknown): StandardResult<T> => {
        const result = safeParse(value, { onDrift });
        return result.success ? { value: result.data } : { issues: result.error.issues.map((issue) => ({ message: issue.message, path: issue.path })) };
      },
    },
    parse: (value: unknown, options?: ParseRecordsOptions): T => orThrow(safeParse(value, options)),
    safeParse,
    '~check': check,
    '~exact': exact,
  };
}

/*
 * Records queries: `recordsQuery` (the grammar of `view`, `where`, `order`, `pkey` and `limit`,
 * written and encoded once) and `fetchRecords` (the request, its credentials and its answer read
 * by `parseAnswer`). The generated output holds only each message type's field table
 * (`<Name>QueryFields`: every field, key field and key part as `[how it compares, its value]`);
 * the types here turn such a table into the query a compiler checks. What each kind of field
 * takes: docs/record-types.md, "Typed queries".
 */

/** How a field of a records query compares: the kinds of a `<Name>QueryFields` table. */
export type QueryFieldKind = 'number' | 'text' | 'date' | 'span' | 'enum' | 'flag' | 'key';

/**
 * The `where` operators each kind of field takes: the comparisons for what is ordered (numbers,
 * dates, time spans; text lexicographically), the text operators (`sw`, `ew`, `cv`, `nv`) for
 * text, a flag's names `eq`, `ne`, `cv` and `nv`, an enum's names and a whole key only `eq` and
 * `ne` (neither has an order the service documents).
 */
export interface QueryOperators {
  number: 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le' | 'cb';
  text: 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le' | 'sw' | 'ew' | 'cv' | 'nv' | 'cb';
  date: 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le' | 'cb';
  span: 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le' | 'cb';
  enum: 'eq' | 'ne';
  flag: 'eq' | 'ne' | 'cv' | 'nv';
  key: 'eq' | 'ne';
}

/** Every `where` operator, as the service names them. */
export type QueryOperator = QueryOperators[QueryFieldKind];

/** The operators a field of a table takes. */
type OperatorsOf<S> = S extends readonly [infer Kind extends QueryFieldKind, unknown] ? QueryOperators[Kind] : never;

/** The value a field of a table takes: a key as its object or its string, an enum's or flag's names (not the unknown-name case), else as the table says. */
type ValueOf<S> = S extends readonly ['key', infer K] ? K | string : S extends readonly ['enum' | 'flag', infer N] ? Extract<N, string> : S extends readonly [QueryFieldKind, infer V] ? V : never;

/** One condition of `where` over a field table `F`: `[field, operator, value]`, and for `cb` (between) `[field, 'cb', [low, high]]`. */
export type WhereCondition<F> = {
  [K in keyof F & string]: readonly [K, Exclude<OperatorsOf<F[K]>, 'cb'>, ValueOf<F[K]>] | ('cb' extends OperatorsOf<F[K]> ? readonly [K, 'cb', readonly [ValueOf<F[K]>, ValueOf<F[K]>]] : never);
}[keyof F & string];

/** A `where` over a field table `F`: a condition, or all (`and`) or any (`or`) of several, nested. */
export type Where<F> = WhereCondition<F> | { readonly and: readonly [Where<F>, ...Where<F>[]] } | { readonly or: readonly [Where<F>, ...Where<F>[]] };

/** One level of `order` over a field table `F`: `[field, 'ASC' | 'DESC']`, and for numbers and time spans `[field, 'ASC' | 'DESC', 'ABS']` (by absolute value). */
export type OrderBy<F> = {
  [K in keyof F & string]: readonly [K, 'ASC' | 'DESC'] | (F[K] extends readonly ['number' | 'span', unknown] ? readonly [K, 'ASC' | 'DESC', 'ABS'] : never);
}[keyof F & string];

/**
 * A records query of a message type: its field table `F`, its key type `P` (written in the
 * service's string form), the field names `V` of its view.
 */
export interface RecordsQueryOf<F, P, V extends string> {
  /** The fields the records hold (and `pkey`): `view=okey|bidPrice`. Without it, every field. */
  readonly view?: readonly V[] | undefined;
  /** Which records: `where=bidPrice:gt:1&bidExch:eq:CBOE`. */
  readonly where?: Where<F> | undefined;
  /** In which order, one entry a level: `order=bidPrice:DESC|uPrc:ASC:ABS`. Without it, unordered (faster). */
  readonly order?: readonly OrderBy<F>[] | undefined;
  /** The record of one key: the key (written `AAPL-NMS-EQT-2023-07-28-180-C`, several fields joined by `|`) or its string. */
  readonly pkey?: P | string | undefined;
  /** At most this many records: an integer from 1 to 10000. */
  readonly limit?: number | undefined;
}

/** A record of a query with a view `V`: `pkey` and the viewed fields (each optional, as the service leaves defaults out), nothing else. Without a view, the whole record. */
export type ViewedRecordOf<R, V extends string> = [V] extends [never] ? R : Pick<R, Extract<'pkey' | V, keyof R>>;

/** The key type of a record type (its `pkey`'s), or `never` for a type without key fields. */
export type RecordKeyOf<R> = 'pkey' extends keyof R ? Exclude<R['pkey' & keyof R], undefined> : never;

/** The names a `view` of a record type takes: its fields and its key fields. */
export type ViewNameOf<R> = (Exclude<keyof R, 'pkey'> | keyof RecordKeyOf<R>) & string;

/** What `fetchRecords` resolves to: the answer, its records of the type `N` asked for, each a record `R`. */
export type FetchedRecordsOf<N extends string, R> = Promise<RecordsAnswerOf<{ header: { mTyp: N }; message: R }>>;

/** The platform's `URLSearchParams` where its types are declared (DOM or Node.js), else what a query uses of it. */
export type QueryParams = typeof globalThis extends { URLSearchParams: { prototype: infer P } } ? P : QueryParamsLike;

/** What a query uses of a `URLSearchParams` (a project without DOM or Node.js types sees this). */
export interface QueryParamsLike {
  append(name: string, value: string): void;
  get(name: string): string | null;
  has(name: string): boolean;
  toString(): string;
}

/** The platform's `AbortSignal` where its types are declared, else what `fetchRecords` reads of it. */
export type QuerySignal = typeof globalThis extends { AbortSignal: { prototype: infer S } } ? S : { readonly aborted: boolean };

/** What `fetchRecords` uses of the answer of a `fetch`. */
export interface FetchResponseLike {
  readonly status: number;
  readonly statusText?: string;
  text(): Promise<string>;
}

/** A `fetch` function as `fetchRecords` calls it: the global one, or one of the caller's (a proxy, a test). */
export type FetchLike = (url: string, init: { signal?: QuerySignal; headers: { accept: string } }) => Promise<FetchResponseLike>;

/** Options of `fetchRecords`: the credentials, how to fetch, and those of `parseRecords`. */
export interface FetchRecordsOptions extends ParseRecordsOptions {
  /** The API key, sent as the `apikey` parameter. Never in an error's text. */
  apiKey?: string | undefined;
  /** The secret, sent as the `secret` parameter. Never in an error's text. */
  secret?: string | undefined;
  /** The `fetch` to use. @default the global `fetch` */
  fetch?: FetchLike | undefined;
  /** Aborts the request: `fetchRecords` then rejects with the signal's reason. */
  signal?: QuerySignal | undefined;
}

/** The most records one query may ask for. */
const MAX_LIMIT = 10000;

/** A field name of a query: a field, or a key's part after a dot (`okey.tk`). */
const QUERY_FIELD = /^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)?$/;

const OPERATORS: readonly string[] = ['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'sw', 'ew', 'cv', 'nv', 'cb'];

/** The characters of the grammar a value cannot hold: it has no escape for them. */
const GRAMMAR = /[&|()]/;

/** A query the caller's code may have built without the types: what `queryParams` reads. */
export interface QueryInput {
  readonly view?: unknown;
  readonly where?: unknown;
  readonly order?: unknown;
  readonly pkey?: unknown;
  readonly limit?: unknown;
}

/** A query the grammar cannot write: kind `query`, saying where and what to do. */
function badQuery(where: string, problem: string): RecordsError {
  return new RecordsError('query', `The records query cannot be written: ${where} ${problem}.`);
}

/**
 * The parameters of a records query (`cmd=getmsgs&msgType=<name>` and each clause given), in the
 * service's grammar, encoded once by `URLSearchParams`.
 * @param keyFields - the key fields of the type in record order, when it has several (a `pkey` object's parts are joined in it)
 * @throws RecordsError of kind `query` for what the grammar cannot write (a `limit` outside 1..10000, a value holding `&`, `|` or a parenthesis, …)
 */
export function queryParams(name: string, query: QueryInput | undefined, keyFields?: readonly string[]): QueryParams {
  const Params = (globalThis as unknown as { URLSearchParams?: new () => QueryParamsLike }).URLSearchParams;
  if (Params === undefined) throw new RecordsError('query', 'This platform has no URLSearchParams: records queries need one (Node.js 18 or later, any browser).');
  const params = new Params();
  params.append('cmd', 'getmsgs');
  params.append('msgType', name);
  const { view, where, order, pkey, limit } = query ?? {};
  if (pkey !== undefined) params.append('pkey', pkeyText(pkey, keyFields));
  if (limit !== undefined) {
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw badQuery('limit', `must be an integer from 1 to ${MAX_LIMIT}, got ${describe(limit)}`);
    params.append('limit', String(limit));
  }
  if (view !== undefined) {
    const names = listOf(view, 'view').map((field, i) => fieldName(field, `view[${i}]`, false));
    if (names.length > 0) params.append('view', names.join('|'));
  }
  if (where !== undefined) params.append('where', whereText(where, 'where', true));
  if (order !== undefined) {
    const levels = listOf(order, 'order').map((level, i) => orderText(level, `order[${i}]`));
    if (levels.length > 0) params.append('order', levels.join('|'));
  }
  return params as QueryParams;
}

function listOf(value: unknown, where: string): readonly unknown[] {
  if (!Array.isArray(value)) throw badQuery(where, `must be an array, got ${describe(value)}`);
  return value;
}

function fieldName(value: unknown, where: string, part: boolean): string {
  if (typeof value !== 'string' || !(part ? QUERY_FIELD : /^[A-Za-z_$][A-Za-z0-9_$]*$/).test(value)) throw badQuery(where, `must be a field name${part ? ' (or key.part)' : ''}, got ${describe(value)}`);
  return value;
}

/** A `where` as text: a group's members joined by `&` (and) or `|` (or); a nested group of several in parentheses, so no precedence is relied on. */
function whereText(where: unknown, at: string, top: boolean): string {
  if (Array.isArray(where)) return conditionText(where, at);
  if (isObject(where)) {
    const keys = Object.keys(where);
    const join = keys.length === 1 && keys[0] === 'and' ? '&' : keys.length === 1 && keys[0] === 'or' ? '|' : undefined;
    if (join === undefined) throw badQuery(at, `must be a condition [field, operator, value], { and: [...] } or { or: [...] }, got an object with ${keys.length === 0 ? 'no keys' : `the keys ${keys.slice(0, 3).join(', ')}`}`);
    const members = listOf(where[keys[0]!], `${at}.${keys[0]}`);
    if (members.length === 0) throw badQuery(`${at}.${keys[0]}`, 'is empty: give at least one condition');
    const text = members.map((member, i) => whereText(member, `${at}.${keys[0]}[${i}]`, members.length === 1 && top)).join(join);
    return top || members.length === 1 ? text : `(${text})`;
  }
  throw badQuery(at, `must be a condition [field, operator, value], { and: [...] } or { or: [...] }, got ${describe(where)}`);
}

function conditionText(condition: readonly unknown[], at: string): string {
  if (condition.length !== 3) throw badQuery(at, `must be [field, operator, value], got an array of ${condition.length}`);
  const field = fieldName(condition[0], `${at}[0]`, true);
  const op = condition[1];
  if (typeof op !== 'string' || !OPERATORS.includes(op)) throw badQuery(`${at}[1]`, `must be one of ${OPERATORS.join(' ')}, got ${describe(op)}`);
  const value = condition[2];
  if (op !== 'cb') return `${field}:${op}:${valueText(value, `${at}[2]`)}`;
  if (!Array.isArray(value) || value.length !== 2) throw badQuery(`${at}[2]`, `must be [low, high] for cb (between), got ${describe(value)}`);
  const [low, high] = value.map((v: unknown, i: number) => valueText(v, `${at}[2][${i}]`));
  if (low!.includes('$') || high!.includes('$')) throw badQuery(`${at}[2]`, 'holds a "$", which separates the two values of cb');
  return `${field}:cb:${low}$${high}`;
}

/** A value as the grammar writes it: text as it is, numbers in JavaScript's shortest form, a key as its string. */
function valueText(value: unknown, at: string): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw badQuery(at, `must be a finite number, got ${describe(value)}`);
    text = String(value);
  } else if (typeof value === 'bigint') text = String(value);
  else if (isObject(value)) text = keyText(value, at);
  else throw badQuery(at, `must be text, a number or a key, got ${describe(value)}`);
  if (GRAMMAR.test(text)) throw badQuery(at, `holds "${GRAMMAR.exec(text)![0]}", which the where grammar uses (& and, | or, parentheses) and cannot escape: narrow with another operator (sw, cv) instead`);
  return text;
}

/** A key object in the service's string form: `tk-ts-at`, then `-dt`, then `-xx-C` or `-P`. */
function keyText(key: Record<string, unknown>, at: string): string {
  const part = (name: string): string => {
    const value = key[name];
    if (typeof value === 'string') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    throw badQuery(`${at}.${name}`, `must be ${name === 'xx' ? 'a number' : 'a string'}, got ${describe(value)}`);
  };
  const parts = [part('tk'), part('ts'), part('at')];
  if (key['dt'] !== undefined) parts.push(part('dt'));
  if (key['xx'] !== undefined || key['cp'] !== undefined) {
    const cp = key['cp'];
    if (cp !== 'Call' && cp !== 'Put') throw badQuery(`${at}.cp`, `must be "Call" or "Put", got ${describe(cp)}`);
    parts.push(part('xx'), cp === 'Call' ? 'C' : 'P');
  }
  return parts.join('-');
}

/** A `pkey` as text: a string as it is; a key type's value with each key field in record order, joined by `|`. */
function pkeyText(pkey: unknown, keyFields: readonly string[] | undefined): string {
  if (typeof pkey === 'string') return pkey;
  if (!isObject(pkey)) throw badQuery('pkey', `must be the type's key or its string, got ${describe(pkey)}`);
  const fields = keyFields ?? Object.keys(pkey);
  if (fields.length !== 1 && keyFields === undefined) throw badQuery('pkey', `must hold the type's one key field, got ${fields.length === 0 ? 'none' : fields.join(', ')}`);
  return fields
    .map((field) => {
      const value = pkey[field];
      if (value === undefined) throw badQuery(`pkey.${field}`, 'is missing: a key holds all its fields');
      return valueText(value, `pkey.${field}`);
    })
    .join('|');
}

function orderText(level: unknown, at: string): string {
  if (!Array.isArray(level) || level.length < 2 || level.length > 3) throw badQuery(at, `must be [field, 'ASC' | 'DESC'] or [field, 'ASC' | 'DESC', 'ABS'], got ${describe(level)}`);
  const field = fieldName(level[0], `${at}[0]`, true);
  const direction = level[1];
  if (direction !== 'ASC' && direction !== 'DESC') throw badQuery(`${at}[1]`, `must be "ASC" or "DESC", got ${describe(direction)}`);
  if (level.length === 3 && level[2] !== 'ABS') throw badQuery(`${at}[2]`, `must be "ABS" (by absolute value) or left out, got ${describe(level[2])}`);
  return level.length === 3 ? `${field}:${direction}:ABS` : `${field}:${direction}`;
}

/** A text cut to `max` characters, each secret given replaced (as it is and URL-encoded), unsafe characters escaped. */
function safeExcerpt(text: string, secrets: readonly (string | undefined)[], max: number): string {
  let safe = text;
  for (const secret of secrets) {
    if (secret === undefined || secret === '') continue;
    for (const form of new Set([secret, encodeURIComponent(secret), encodeURIComponent(secret).replace(/%20/g, '+')])) safe = safe.split(form).join('[redacted]');
  }
  const cut = safe.length > max ? `${safe.slice(0, max)}…` : safe;
  return JSON.stringify(cut).slice(1, -1).replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Requests a records query (`{baseUrl}/rest/json` with its parameters and the credentials) and
 * reads the answer with `parseAnswer`: each record must be of the type asked for, and holds only
 * the fields of the view (with `pkey`) when there is one.
 * @throws RecordsError of kind `status` (an answer other than 200: its status and a short, safe excerpt), `network` (no answer), or those of `parseAnswer`; the signal's reason when aborted
 */
export async function fetchAnswer(
  baseUrl: string,
  params: QueryParams,
  schemas: { readonly [name: string]: RecordSchema<unknown> },
  options?: FetchRecordsOptions,
): Promise<RecordsAnswerOf<unknown>> {
  const { apiKey, secret, signal } = options ?? {};
  const secrets = [apiKey, secret];
  const run = options?.fetch ?? (globalThis as unknown as { fetch?: FetchLike }).fetch;
  if (run === undefined) throw new RecordsError('network', 'This platform has no global fetch: pass options.fetch.');
  // User info is refused, as a query is: the credentials go as options.apiKey and options.secret, and neither is ever shown.
  if (typeof baseUrl !== 'string' || !/^https?:\/\/[^?#@/]+(\/[^?#]*)?$/.test(baseUrl)) {
    const shown = typeof baseUrl === 'string' ? baseUrl.replace(/[?#].*$/s, '?…').replace(/^([a-z]+:\/\/)[^/]*@/i, '$1…@') : baseUrl;
    throw new RecordsError('query', `The base URL must be an http or https URL without user info, a query or a fragment (the query is built from the arguments, the credentials are options.apiKey and options.secret), got ${describe(shown)}.`);
  }
  const request = params as unknown as QueryParamsLike;
  const name = request.get('msgType') ?? '';
  const view = request.get('view');
  const sent = (globalThis as unknown as { URLSearchParams: new (init: string) => QueryParamsLike }).URLSearchParams;
  const query = new sent(request.toString());
  if (apiKey !== undefined && apiKey !== '') query.append('apikey', apiKey);
  if (secret !== undefined && secret !== '') query.append('secret', secret);
  const url = `${baseUrl.replace(/\/+$/, '')}/rest/json?${query.toString()}`;
  let response: FetchResponseLike;
  let text: string;
  try {
    response = await run(url, signal === undefined ? { headers: { accept: 'application/json' } } : { signal, headers: { accept: 'application/json' } });
    text = await response.text();
  } catch (error) {
    if (signal !== undefined && (signal as { aborted?: boolean }).aborted === true) throw (signal as { reason?: unknown }).reason ?? error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new RecordsError('network', `The records query of ${quote(name)} got no answer from ${quote(baseUrl)}: ${safeExcerpt(reason, secrets, 200)}.`);
  }
  if (response.status !== 200) {
    const excerpt = safeExcerpt(text.trim(), secrets, 200);
    const hint =
      response.status === 401 || response.status === 403
        ? apiKey === undefined || apiKey === ''
          ? ' No apiKey was given: pass options.apiKey (and options.secret if the service asks for one).'
          : ' Check options.apiKey and options.secret (not shown here).'
        : '';
    throw new RecordsError('status', `The records query of ${quote(name)} was answered with HTTP ${response.status}${response.statusText ? ` ${safeExcerpt(response.statusText, secrets, 40)}` : ''}: ${excerpt === '' ? '(no body)' : excerpt}.${hint}`, { status: response.status });
  }
  const answer = orThrow(parseAnswer(text, schemas, options));
  const keep = view === null ? undefined : ['pkey', ...view.split('|')];
  const c = new Checker(options, undefined);
  answer.records.forEach((element, i) => {
    const { header, message } = element as { header: { mTyp: string }; message: Record<string, unknown> };
    if (header.mTyp !== name) c.bad([i, 'header'], 'mTyp', `a record of ${quote(name)}, the type asked for`, header.mTyp);
    else if (keep !== undefined) for (const key of Object.keys(message)) if (!keep.includes(key)) delete message[key];
  });
  if (c.count > 0) throw invalid(c, answer.result);
  return answer;
}

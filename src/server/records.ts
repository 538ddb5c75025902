/**
 * Saved records answers the reference server serves (`serve --records <file>…`): `cmd=getmsgs`
 * on `/rest/json` and `/rest/jsonf`, narrowed by `msgType`, `pkey`, `where`, ordered by `order`,
 * cut by `limit`, each record cut to its `view`, and ended by a `QueryResult` as the service ends
 * every answer (`queryElapsed` always 0: identical requests get identical bytes). A malformed
 * clause is answered with a `QueryResult` whose `result` is `Error` and whose `detail` says why,
 * as the service does. Integers beyond 2^53 (nanosecond timestamps) are served digit for digit.
 */
import { readFile } from 'node:fs/promises';
import { ConfigError } from '../model/errors.js';
import { msg } from '../model/message.js';
import { isRecord } from './listing.js';
import { fieldsIn, matches, orderBy, parseOrder, parseWhere, pkeyString, type KeyField } from './records-where.js';
import type { SchemaSet } from './schemas.js';

/** The records a server serves: every record element of the saved answers, in file order, and the marker of their exact integers. */
export interface RecordSet {
  /** The record elements (`{ header: { mTyp }, message }`), big integers as `bigint`. */
  elements: readonly { header: Record<string, unknown>; message: Record<string, unknown> }[];
}

/** The bounds real servers put on `limit`. */
const LIMIT_MAX = 10_000;

/**
 * The prefix of the strings that stand for big integers while a file is parsed, and how the text
 * writes it: a control character, which JSON text holds only escaped, that no string of this
 * text holds (its escape appears nowhere in it).
 */
function markerFor(text: string): { marker: string; written: string } {
  const lower = text.toLowerCase();
  let written = '';
  for (let code = 1; code < 32; code++) {
    const escape = `\\u${code.toString(16).padStart(4, '0')}`;
    if (!lower.includes(escape)) return { marker: String.fromCharCode(code), written: escape };
    written += escape;
  }
  // Every control character written as an escape in one file (not a saved answer of the service): all of them in a row.
  return { marker: written.split('\\u').slice(1).map((hex) => String.fromCharCode(parseInt(hex, 16))).join(''), written };
}

/**
 * Parses a saved answer, keeping integers of 16 digits or more (those a `number` may round)
 * exact, as `bigint`s: each is put in a marked string before `JSON.parse` (a number follows `:`,
 * `,` or `[` outside a string) and read back by its reviver.
 */
export function parseExact(text: string): unknown {
  const { marker, written } = markerFor(text);
  let protectedText = '';
  let inString = false;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '-' || (c >= '0' && c <= '9')) {
      const token = /^-?\d+(\.\d+)?([eE][-+]?\d+)?/.exec(text.slice(i, i + 400));
      // Not a number: JSON.parse says where, below.
      if (token === null) continue;
      const number = token[0];
      if (/^-?\d{16,}$/.test(number)) {
        protectedText += `${text.slice(from, i)}"${written}${number}"`;
        from = i + number.length;
      }
      i += number.length - 1;
    }
  }
  protectedText += text.slice(from);
  return JSON.parse(protectedText, (_key, value: unknown) => (typeof value === 'string' && value.startsWith(marker) ? BigInt(value.slice(marker.length)) : value));
}

/** JSON text of a value whose big integers are `bigint`s: written as bare numbers, as the service sends them. */
export function stringifyExact(value: unknown): string {
  // The tag of a big integer while it is a string: control characters no string of the value holds.
  const plain = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? 0 : v));
  let n = 1;
  while (plain.includes('\\u0001'.repeat(n))) n++;
  const tag = '\u0001'.repeat(n);
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${tag}${v}` : v));
  return text.replace(new RegExp(`"(?:\\\\u0001){${n}}(-?\\d+)"`, 'g'), '$1');
}

/**
 * Reads saved records answers (`rest/json` arrays): their record elements, in file order; a
 * `QueryResult` element, which ends each answer, is left out.
 * @throws ConfigError naming the file that cannot be read, is not JSON, or holds no array of elements
 */
export async function loadRecordFiles(paths: readonly string[]): Promise<RecordSet> {
  const elements: RecordSet['elements'][number][] = [];
  for (const path of paths) {
    let parsed: unknown;
    try {
      const text = await readFile(path, 'utf8');
      parsed = parseExact(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    } catch (error) {
      throw new ConfigError(msg`Cannot read the records file ${path}: ${error instanceof Error ? error.message.replace(/\.$/, '') : String(error)}.`, {
        hint: msg`Save the body of a /rest/json records answer (a JSON array of { header, message } elements) as it was received.`,
        cause: error,
      });
    }
    const bad = Array.isArray(parsed) ? parsed.findIndex((element) => !isRecord(element) || !isRecord(element['header']) || !isRecord(element['message'])) : -1;
    if (!Array.isArray(parsed) || bad !== -1) {
      throw new ConfigError(msg`The records file ${path} is not a records answer: ${Array.isArray(parsed) ? `element ${bad} is not { header, message }` : 'it holds no JSON array'}.`, {
        hint: msg`Save the body of a /rest/json records answer (a JSON array of { header, message } elements) as it was received.`,
      });
    }
    for (const element of parsed as RecordSet['elements'][number][]) if (typeOf(element) !== 'QueryResult') elements.push(element);
  }
  return { elements };
}

/** The type an element's header names (`mTyp`, or `msgType`). */
function typeOf(element: RecordSet['elements'][number]): unknown {
  return element.header['mTyp'] ?? element.header['msgType'];
}

/** What `selectRecords` knows of the listing: each type's message number, and its field names where its field descriptors are served. */
export interface RecordTypes {
  /** The message number of a type name (a numeric `msgType` names a type by it). */
  numberOf(name: string): number | undefined;
  /** The names of a type's fields and key fields, when the server has its field descriptors: then a clause naming another is an error, as the service answers it. */
  fieldsOf(name: string): ReadonlySet<string> | undefined;
  /** A type's key fields in record order, when the server has its field descriptors. */
  keyOf(name: string): readonly KeyField[] | undefined;
}

/** The field types whose default is 0 (the rest of the scalar types: ''). */
const NUMERIC = new Set(['Byte', 'Short', 'UShort', 'Int', 'UInt', 'Long', 'ULong', 'Float', 'Double']);

/** A key field's value when a record leaves it out: its type's default. */
function fallbackOf(field: Record<string, unknown>): KeyField['fallback'] {
  const type = String(field['fType'] ?? '');
  if (/Key$/.test(type)) return undefined;
  if (NUMERIC.has(type)) return 0;
  if (type === 'Enum' || type === 'Flag') {
    const set = field['eSet'];
    const first = Array.isArray(set) ? set[0] : typeof set === 'string' ? set.split(',')[0] : undefined;
    return first === undefined ? '' : String(first);
  }
  return '';
}

/** The {@link RecordTypes} of a listing and its field descriptors. */
export function recordTypes(listing: readonly unknown[], schemas: SchemaSet | undefined): RecordTypes {
  const numbers = new Map<string, number>();
  for (const element of listing) {
    const message = isRecord(element) && isRecord(element['message']) ? element['message'] : {};
    const mNum = Number(message['mNum']);
    if (typeof message['name'] === 'string' && Number.isInteger(mNum)) numbers.set(message['name'], mNum);
  }
  // The record's own fields (a repeating group's are not), in record order.
  const ownFields = (name: string): Record<string, unknown>[] | undefined => {
    const fields = schemas !== undefined && Object.hasOwn(schemas, name) ? schemas[name]! : undefined;
    if (fields === undefined) return undefined;
    const own = fields.filter((field): field is Record<string, unknown> => isRecord(field) && typeof field['name'] === 'string' && (field['inRepeater'] ?? '') === '');
    return own.map((field, i) => ({ field, i })).sort((a, b) => (Number(a.field['pos']) || 0) - (Number(b.field['pos']) || 0) || a.i - b.i).map(({ field }) => field);
  };
  return {
    numberOf: (name) => numbers.get(name),
    fieldsOf: (name) => {
      const fields = ownFields(name);
      return fields === undefined ? undefined : new Set(fields.map((field) => String(field['name'])));
    },
    keyOf: (name) => {
      // isPkey in the encodings of the listing's flags: Yes, true, YESNO_YES, 1.
      const keys = ownFields(name)?.filter((field) => /^(yes|true|1|yesno_yes)$/i.test(String(field['isPkey'])));
      return keys === undefined || keys.length === 0 ? undefined : keys.map((field) => ({ name: String(field['name']), fallback: fallbackOf(field) }));
    },
  };
}

/**
 * Answers `cmd=getmsgs`: the records of `msgType` matching `pkey` and `where`, in `order`, at
 * most `limit`, each cut to `view`, then the `QueryResult`; or a `QueryResult` alone with
 * `result: "Error"` and the `detail` of the first clause that does not parse, or that names a
 * field the type does not have (where its field descriptors are known).
 */
export function selectRecords(set: RecordSet, query: Readonly<Record<string, string>>, types: RecordTypes): unknown[] {
  const error = (detail: string) => [queryResult({ numMessagesSent: 0, queryElapsed: 0, result: 'Error', detail })];
  if (query['cmd'] !== 'getmsgs') return error(`unknown cmd "${query['cmd'] ?? ''}" (records answer cmd=getmsgs)`);
  const type = query['msgType'];
  if (type === undefined || type === '') return error('getmsgs needs msgType');
  let limit = LIMIT_MAX;
  if (query['limit'] !== undefined) {
    limit = /^\d+$/.test(query['limit']) ? Number(query['limit']) : Number.NaN;
    if (!(limit >= 1 && limit <= LIMIT_MAX)) return error(`invalid limit "${query['limit']}": must be an integer 1..${LIMIT_MAX}`);
  }
  const where = query['where'] === undefined ? undefined : parseWhere(query['where']);
  if (typeof where === 'string') return error(where);
  const order = query['order'] === undefined ? undefined : parseOrder(query['order']);
  if (typeof order === 'string') return error(order);
  const view = query['view'] === undefined ? undefined : query['view'].split('|');
  const badView = view?.find((name) => !/^[A-Za-z_$][\w$]*$/.test(name));
  if (badView !== undefined) return error(`invalid view "${query['view']}": "${badView}" is not a field name`);
  const pkey = query['pkey'];
  const named = (element: RecordSet['elements'][number]) => {
    const name = typeOf(element);
    return name === type || (/^\d+$/.test(type) && typeof name === 'string' && types.numberOf(name) === Number(type));
  };
  const known = types.fieldsOf(type);
  if (known !== undefined) {
    const asked = [...(where === undefined ? [] : fieldsIn(where)), ...(order ?? []).map((level) => level.field), ...(view ?? [])];
    const unknown = asked.find((field) => !known.has(field.split('.')[0]!));
    if (unknown !== undefined) return error(`unknown field "${unknown}" of ${type}`);
  }
  const keyFields = types.keyOf(type);
  let selected = set.elements.filter((element) => named(element) && (pkey === undefined || pkeyString(element.message, keyFields) === pkey) && (where === undefined || matches(element.message, where)));
  if (order !== undefined) {
    const compare = orderBy(order);
    selected = [...selected].sort((a, b) => compare(a.message, b.message));
  }
  const records = selected.slice(0, limit).map((element) => (view === undefined ? element : { ...element, message: viewOf(element.message, view) }));
  return [...records, queryResult({ numMessagesSent: records.length, queryElapsed: 0, result: 'Ok' })];
}

/** A record cut to its view: `pkey` and the fields named (a key field's name keeps `pkey`, which holds it). */
function viewOf(message: Record<string, unknown>, view: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(message)) if (key === 'pkey' || view.includes(key)) out[key] = value;
  return out;
}

function queryResult(message: Record<string, unknown>): Record<string, unknown> {
  return { header: { mTyp: 'QueryResult' }, message };
}

/** An answer's elements as `rest/json` text. */
export function jsonBody(elements: readonly unknown[]): string {
  return stringifyExact(elements);
}

/** An answer's elements as `rest/jsonf` text: each after CR LF, `J`, its type's message number (5 digits) and its length in bytes (6). */
export function framedBody(elements: readonly unknown[], numberOf: RecordTypes['numberOf']): string {
  return elements
    .map((element) => {
      const text = stringifyExact(element);
      const header = isRecord(element) && isRecord(element['header']) ? element['header'] : {};
      const name = header['mTyp'] ?? header['msgType'];
      const number = typeof name === 'string' ? (numberOf(name) ?? 0) : 0;
      return `\r\nJ${String(number).padStart(5, '0')}${String(Buffer.byteLength(text)).padStart(6, '0')}${text}`;
    })
    .join('');
}

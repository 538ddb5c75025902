/**
 * The field descriptors the reference server answers `cmd=getschema&msgType=<name>` with: read
 * from a schema file beside the listing (`serve --file x.json` looks for `x.schemas.json`), one
 * `FieldDesc` element per field, optionally followed by the `QueryResult` trailer, as real
 * deployments answer it. Pure apart from the file read.
 *
 * The schema file is a JSON object keyed by message type name; each value is the array of that
 * type's `FieldDesc` messages, served in the file's order:
 *
 * ```json
 * { "OptionNbboQuote": [{ "pos": 1, "name": "okey", "fNum": 10, "isPkey": "Yes", "fType": "OptionKey" }, …] }
 * ```
 *
 * An item that is already a whole element (`{ "header": …, "message": … }`) is served as it is,
 * so tests can serve malformed elements.
 */

import { msg } from '../model/message.js';
import { access, readFile } from 'node:fs/promises';
import { ConfigError } from '../model/errors.js';
import { buildTrailer, withHeaderKey } from './listing.js';
import type { MutableServerOptions } from './reference-server.js';

/** Field descriptors by message type name: each type's `FieldDesc` messages (or raw elements). */
export type SchemaSet = Readonly<Record<string, readonly unknown[]>>;

/** The schema file that belongs to a listing file: `x.json` → `x.schemas.json`. */
export function schemasPathFor(listingPath: string): string {
  return `${listingPath.replace(/\.json$/i, '')}.schemas.json`;
}

/**
 * Reads a schema file (see the module comment).
 * @throws ConfigError when it cannot be read, is not JSON, or is not an object of arrays
 */
export async function loadSchemasFile(path: string): Promise<SchemaSet> {
  let parsed: unknown;
  try {
    const text = await readFile(path, 'utf8');
    parsed = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch (error) {
    throw new ConfigError(msg`Cannot read schema file ${path}: ${error instanceof Error ? error.message : String(error)}.`, {
      hint: msg`The file must hold a JSON object: message type name → array of FieldDesc messages.`,
      cause: error,
    });
  }
  assertSchemas(parsed, path);
  return parsed;
}

/** The schema file beside a listing file, or undefined when there is none. */
export async function loadSchemasBeside(listingPath: string): Promise<SchemaSet | undefined> {
  const path = schemasPathFor(listingPath);
  const exists = await access(path).then(
    () => true,
    () => false,
  );
  return exists ? loadSchemasFile(path) : undefined;
}

/** Checks that a schema set is an object of arrays, since each array is served as a body. */
export function assertSchemas(schemas: unknown, origin: string): asserts schemas is SchemaSet {
  const valid =
    typeof schemas === 'object' && schemas !== null && !Array.isArray(schemas) && Object.values(schemas).every((fields) => Array.isArray(fields));
  if (valid) return;
  throw new ConfigError(msg`${origin}: the schemas must be a JSON object of arrays (message type name → FieldDesc messages).`, {
    hint: msg`E.g. { "Order": [{ "pos": 1, "name": "orderId", "fNum": 10, "isPkey": "Yes", "fType": "Long" }] }`,
  });
}

/**
 * The body of a `getschema` answer for `msgType`: its `FieldDesc` elements (header key as
 * configured, `mTyp` by default) and the trailer when configured. A type the listing has but the
 * schemas do not gets no elements; a type the listing does not have gets an error trailer.
 */
export function schemaBody(msgType: string, options: Pick<MutableServerOptions, 'listing' | 'schemas' | 'headerKey' | 'trailer'>): unknown[] {
  // Built elements use the short `mTyp` unless told otherwise; raw ones are renamed only when told.
  const headerKey = options.headerKey ?? 'mTyp';
  const schemas = options.schemas ?? {};
  const known = Object.hasOwn(schemas, msgType) || options.listing.some((element) => nameOf(element) === msgType);
  if (!known) {
    return [buildTrailer({ result: 'Error', detail: `unknown message type ${msgType}`, numMessagesSent: 0 }, { descriptorsSent: 0, headerKey })];
  }
  const fields = Object.hasOwn(schemas, msgType) ? schemas[msgType]! : [];
  const body = fields.map((field) => {
    if (!isElement(field)) return { header: { [headerKey]: 'FieldDesc' }, message: field };
    return options.headerKey === undefined ? field : withHeaderKey(field, options.headerKey);
  });
  if (options.trailer) body.push(buildTrailer(options.trailer, { descriptorsSent: fields.length, headerKey }));
  return body;
}

function isElement(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'header' in value && 'message' in value;
}

function nameOf(element: unknown): unknown {
  return (element as { message?: { name?: unknown } } | null | undefined)?.message?.name;
}

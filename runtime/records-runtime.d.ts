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
/** Why reading an answer failed. */
export type RecordsErrorKind = 'invalid' | 'failed' | 'truncated';
/** An answer that could not be read: what went wrong (`kind`), where (`issues`), and the `QueryResult` if there was one. */
export declare class RecordsError extends Error {
    readonly name: 'RecordsError';
    /** `invalid`: not JSON, not an answer, or a record that does not match its type; `failed`: the `QueryResult` says the query failed; `truncated`: the answer ends early. */
    readonly kind: RecordsErrorKind;
    /** Each problem with its path (up to `maxIssues`). */
    readonly issues: readonly RecordIssue[];
    /** The answer's `QueryResult`, when it has one. */
    readonly result: QueryResultMessage | undefined;
    constructor(kind: RecordsErrorKind, message: string, details?: {
        issues?: readonly RecordIssue[];
        result?: QueryResultMessage | undefined;
    });
}
/** What a records answer holds once read: its records, its `QueryResult` and the drift found. */
export interface RecordsAnswerOf<R> {
    readonly records: R[];
    readonly result: QueryResultMessage;
    readonly drift: readonly DriftFinding[];
}
/** The result of a `safeParse…`: the data, or the error. */
export type SafeParseResult<T> = {
    readonly success: true;
    readonly data: T;
} | {
    readonly success: false;
    readonly error: RecordsError;
};
/** How a generated check reads a record: the value, where it is, and the checker that collects issues. */
export type RecordCheck = (value: any, path: RecordPath, checker: Checker) => unknown;
/** A Standard Schema v1 result. */
export type StandardResult<T> = {
    readonly value: T;
    readonly issues?: undefined;
} | {
    readonly issues: readonly {
        readonly message: string;
        readonly path: RecordPath;
    }[];
};
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
        readonly types?: {
            readonly input: unknown;
            readonly output: T;
        } | undefined;
    };
    /** The record, or a `RecordsError` of kind `invalid`. The value is not changed: the record is a copy where it differs. */
    parse(value: unknown, options?: ParseRecordsOptions): T;
    safeParse(value: unknown, options?: ParseRecordsOptions): SafeParseResult<T>;
    /** The generated check (used by `parseRecords`). */
    readonly '~check': RecordCheck;
    /** Whether its check reads 64-bit integers exactly from the text (int64 `bigint` or `string`). */
    readonly '~exact': boolean;
}
/** A value quoted short and made safe, with what it is: `the number 5`, `the string "abc"`. */
export declare function describe(value: unknown): string;
/** A path as text: `[3].message.pkey.okey.dt`; a key that is not a plain name as `["a b"]`. */
export declare function pathText(path: RecordPath): string;
/**
 * Collects the issues and drift findings of one reading, and converts what the text kept exact
 * (64-bit integers, see {@link protectIntegers}). Generated checks call it for everything but
 * the fast, common case of a value of the right type.
 */
export declare class Checker {
    /** The issues, up to `max`. */
    readonly issues: RecordIssue[];
    /** How many issues there were in all. */
    count: number;
    /** The drift findings, once per type, kind and field. */
    readonly drift: DriftFinding[];
    /** The message type being checked (drift findings name it). */
    type: string;
    private readonly seen;
    private readonly max;
    private readonly marker;
    private readonly options;
    /**
     * @param marker - the prefix of the strings that stand for integers kept exact from the text, if any
     */
    constructor(options: ParseRecordsOptions | undefined, marker: string | undefined);
    /** Whether a value is a plain object (not null, not an array); not a type guard, so a check's `any` stays `any`. */
    isObject(value: unknown): boolean;
    /** Whether a value is an array (not a type guard, as `isObject`). */
    isArray(value: unknown): boolean;
    /** How many enumerable keys a record has (more than it has known fields: drift). */
    size(value: object): number;
    /** An own property of a record (`__proto__`, which a plain read would take from the prototype). */
    own(value: Record<string, unknown>, key: string): unknown;
    /** The default of a `Long` key field typed `bigint`: 0. */
    zero(): bigint;
    /** Whether another issue would not be listed (a reading may stop early). */
    get full(): boolean;
    /** Records an issue at `path` + `key`. */
    bad(path: RecordPath, key: string | number | undefined, expected: string, value: unknown): undefined;
    /** Records a drift finding, once per type, kind and field. */
    private found;
    /** A message type the lockfile does not list. */
    unknownType(path: RecordPath): void;
    /** A value that is not a number: an integer kept exact from the text becomes its number, anything else is an issue. */
    num(value: unknown, path: RecordPath, key: string): unknown;
    /** An integer in `min..max`. */
    int(value: unknown, path: RecordPath, key: string, min: number, max: number): unknown;
    /** A `Long` or `ULong` typed `number`: a safe integer; beyond ±2^53 an issue unless `roundInt64`. */
    longNumber(value: unknown, path: RecordPath, key: string): unknown;
    /** A `Long` or `ULong` typed `bigint`: exact, from the text's digits where it was beyond 2^53. */
    longBigint(value: unknown, path: RecordPath, key: string): unknown;
    /** A `Long` or `ULong` typed `string`: its digits, exact, from the text where it was beyond 2^53. */
    longString(value: unknown, path: RecordPath, key: string): unknown;
    /** The digits of an integer kept exact from the text (a marked string), else undefined. */
    private digits;
    /**
     * An enum value not in its set: a name is drift, kept as the unknown-name case of the field's
     * type (`{ unknown: name }`, which no name of the set compares equal to); an unknown-name case
     * given back (a record read before) is taken as it is; anything else is an issue.
     */
    name(value: unknown, path: RecordPath, key: string, field: string): unknown;
    /** A `TimeSpan`: text or a number. */
    span(value: unknown, path: RecordPath, key: string): unknown;
    /** A value of a field whose type is not known: let through, integers kept exact from the text as numbers. */
    any(value: unknown): unknown;
    /**
     * Fields the type does not list (its known ones: `known`): drift, left out of the record.
     * @param group - the repeating group, for the findings' field names
     */
    extra(record: Record<string, unknown>, path: RecordPath, known: readonly string[], group?: string): void;
    /** A key field object: `TickerKey` (1), `ExpiryKey` (2) or `OptionKey` (3). */
    key(value: unknown, path: RecordPath, key: string, kind: 1 | 2 | 3): void;
    /** A missing key field. */
    missing(path: RecordPath, key: string, expected: string): void;
}
/**
 * The text with every integer literal of 16 digits or more (those a `number` may round) written
 * as a string, the marker then its digits, so that `JSON.parse` keeps them exact; and the marker.
 * The marker is a character no string of the text starts with: one that never follows a quote
 * in the text and is written by no escape in it (JSON writes it only raw or as `\u00XX`), else
 * `\u0000`, as many as it takes to appear nowhere (a string holds it only escaped). A number
 * follows `:`, `,` or `[`; such text inside a string would be cut by the quotes put around it,
 * which no JSON parses: then `exact` tells strings apart.
 */
export declare function protectIntegers(text: string, exact: boolean): {
    text: string;
    marker: string;
};
/** Checks a `QueryResult` message (the schema of a listed message type named `QueryResult` too). */
export declare function checkQueryResult(value: any, path: RecordPath, c: Checker): QueryResultMessage | undefined;
/**
 * Reads a records answer (`rest/json`, or framed `rest/jsonf`): its elements checked by the
 * schema of the type their header names, its `QueryResult` required last. Big integers are read
 * exactly from the text when a schema asks for it (int64 `bigint` or `string`).
 * @param schemas - the record schemas by message type name
 */
export declare function parseAnswer(text: string, schemas: {
    readonly [name: string]: RecordSchema<unknown>;
}, options?: ParseRecordsOptions): SafeParseResult<RecordsAnswerOf<unknown>>;
/** The data of a result, or its error thrown. */
export declare function orThrow<T>(result: SafeParseResult<T>): T;
/**
 * The schema of one message type's records, from its generated check. Validating never changes
 * the value given: the check reads a copy.
 */
export declare function recordSchema<T>(type: string, check: RecordCheck, exact?: boolean): RecordSchema<T>;

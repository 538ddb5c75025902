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
export declare class RecordsError extends Error {
    readonly name: 'RecordsError';
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
    constructor(kind: RecordsErrorKind, message: string, details?: {
        issues?: readonly RecordIssue[];
        result?: QueryResultMessage | undefined;
        status?: number | undefined;
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
     * A field the type does not list: drift, left out of the record.
     * @param group - the repeating group, for the finding's field name
     */
    extra(record: Record<string, unknown>, path: RecordPath, key: string, group?: string): void;
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
export declare const FIELD: {
    readonly ANY: 0;
    readonly TEXT: 1;
    readonly DOUBLE: 2;
    readonly INT: 3;
    readonly UINT: 4;
    readonly RANGE: 5;
    readonly LONG_NUMBER: 6;
    readonly LONG_BIGINT: 7;
    readonly LONG_STRING: 8;
    readonly ENUM: 9;
    readonly ENUM_ANY: 10;
    readonly FLAG: 11;
    readonly SPAN: 12;
    readonly KEY: 13;
    readonly GROUP: 14;
    readonly PKEY: 15;
};
/** The checks of a message type's records, made from its table (once, at its first record). */
export declare function tableCheck(type: string, text: string): RecordCheck;
/**
 * The schema of one message type's records, from its check table (or, for the `QueryResult`, its
 * check). Validating never changes the value given: the check reads a copy.
 */
export declare function recordSchema<T>(type: string, table: RecordCheck | string, exact?: boolean): RecordSchema<T>;
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
export type Where<F> = WhereCondition<F> | {
    readonly and: readonly [Where<F>, ...Where<F>[]];
} | {
    readonly or: readonly [Where<F>, ...Where<F>[]];
};
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
export type FetchedRecordsOf<N extends string, R> = Promise<RecordsAnswerOf<{
    header: {
        mTyp: N;
    };
    message: R;
}>>;
/** The platform's `URLSearchParams` where its types are declared (DOM or Node.js), else what a query uses of it. */
export type QueryParams = typeof globalThis extends {
    URLSearchParams: {
        prototype: infer P;
    };
} ? P : QueryParamsLike;
/** What a query uses of a `URLSearchParams` (a project without DOM or Node.js types sees this). */
export interface QueryParamsLike {
    append(name: string, value: string): void;
    get(name: string): string | null;
    has(name: string): boolean;
    toString(): string;
}
/** The platform's `AbortSignal` where its types are declared, else what `fetchRecords` reads of it. */
export type QuerySignal = typeof globalThis extends {
    AbortSignal: {
        prototype: infer S;
    };
} ? S : {
    readonly aborted: boolean;
};
/** What `fetchRecords` uses of the answer of a `fetch`. */
export interface FetchResponseLike {
    readonly status: number;
    readonly statusText?: string;
    text(): Promise<string>;
}
/** A `fetch` function as `fetchRecords` calls it: the global one, or one of the caller's (a proxy, a test). */
export type FetchLike = (url: string, init: {
    signal?: QuerySignal;
    headers: {
        accept: string;
    };
}) => Promise<FetchResponseLike>;
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
/** A query the caller's code may have built without the types: what `queryParams` reads. */
export interface QueryInput {
    readonly view?: unknown;
    readonly where?: unknown;
    readonly order?: unknown;
    readonly pkey?: unknown;
    readonly limit?: unknown;
}
/**
 * The parameters of a records query (`cmd=getmsgs&msgType=<name>` and each clause given), in the
 * service's grammar, encoded once by `URLSearchParams`.
 * @param keyFields - the key fields of the type in record order, when it has several (a `pkey` object's parts are joined in it)
 * @throws RecordsError of kind `query` for what the grammar cannot write (a `limit` outside 1..10000, a value holding `&`, `|` or a parenthesis, …)
 */
export declare function queryParams(name: string, query: QueryInput | undefined, keyFields?: readonly string[]): QueryParams;
/**
 * Requests a records query (`{baseUrl}/rest/json` with its parameters and the credentials) and
 * reads the answer with `parseAnswer`: each record must be of the type asked for, and holds only
 * the fields of the view (with `pkey`) when there is one.
 * @throws RecordsError of kind `status` (an answer other than 200: its status and a short, safe excerpt), `network` (no answer), or those of `parseAnswer`; the signal's reason when aborted
 */
export declare function fetchAnswer(baseUrl: string, params: QueryParams, schemas: {
    readonly [name: string]: RecordSchema<unknown>;
}, options?: FetchRecordsOptions): Promise<RecordsAnswerOf<unknown>>;
export {};

/**
 * What the index exports for records queries with fields on: `recordsQuery` (a query's
 * parameters, typed by the message type's `<Name>QueryFields`) and `fetchRecords` (the request
 * and its answer, records typed by the view), the types `MessageQueryFields`, `ViewName`,
 * `RecordsQuery` and `ViewedRecord`, and the runtime's `FetchRecordsOptions` and
 * `QueryOperators`. The grammar and the request are the runtime's (`queryParams`,
 * `fetchAnswer`); the index only names this listing's types, and the order of the key fields of
 * the types that have several (a `pkey` object is written in it).
 *
 * The index uses no global type (a message type may be named `Promise` or `Pick`): what the
 * types need of the language's library is written in the runtime, which imports no message type.
 */
import type { CodeBlockWriter } from 'ts-morph';

import type { ImportTracker } from './import-tracker.js';
import type { IndexEntry } from './index-file.js';
import { RECORDS_RUNTIME } from './record-checks.js';
import { keyFieldOrder } from './record-query-fields.js';
import { recordNames } from './record-types.js';
import { moduleSpecifier, type ModuleKind } from './targets.js';
import { memberLine, writeTypeAlias } from './type-declarations.js';
import { writeInterfaceOf } from './line-blocks.js';
import { writeDocs, writeLines } from './writers.js';
import { stringLiteral } from '../text/safe-text.js';

/** The runtime's types the index re-exports for queries (each reserved in `naming.ts`). */
const RUNTIME_TYPES = ['FetchRecordsOptions', 'QueryOperators'] as const;

/** The index's own table of key field orders (not exported; reserved in `naming.ts`). */
const KEY_ORDER = 'recordKeys';

/** Records what the index imports from and re-exports of the runtime for queries. */
export function trackQueryApi(shared: ImportTracker, kind: ModuleKind): void {
  const runtime = moduleSpecifier(RECORDS_RUNTIME, 'root', kind);
  for (const name of RUNTIME_TYPES) shared.reexport(name, runtime, { type: true });
  shared.use('queryParams', runtime);
  shared.use('fetchAnswer', runtime);
  for (const name of ['FetchedRecordsOf', 'QueryParams', 'RecordKeyOf', 'RecordsQueryOf', 'ViewedRecordOf', 'ViewNameOf', 'FetchRecordsOptions']) shared.use(name, runtime, { type: true });
}

/** The query field table a message module adds to the index's import or re-export of it, if it has one. */
export function queryFieldsName(entry: IndexEntry): string | undefined {
  return entry.queryFields === true ? recordNames(entry.name.identifier).query : undefined;
}

/**
 * Writes the key field orders, `recordsQuery` and `fetchRecords` (declarations in a `.d.ts`,
 * plain JavaScript in a `.js`), blank lines before each.
 * @param key - a message type's registry key (`registryKey`)
 */
export function writeQueryApi(writer: CodeBlockWriter, entries: readonly IndexEntry[], kind: ModuleKind, key: (entry: IndexEntry) => string): void {
  const ts = kind !== 'js';
  if (kind !== 'dts') {
    const orders = entries.flatMap((entry) => {
      const order = keyFieldOrder(entry.descriptor);
      return order === undefined ? [] : [`  ${key(entry)}: [${order.map(stringLiteral).join(', ')}],`];
    });
    writer.blankLineIfLastNot();
    writer.writeLine("// The key fields of each type with several, in record order: a `pkey` object's parts are joined in it.");
    const table = '{ readonly [name: string]: readonly string[] }';
    // Plain JavaScript says the table's type in JSDoc (`checkJs`): any name indexes it.
    if (!ts) writer.writeLine(`/** @type {${table}} */`);
    const declaration = `const ${KEY_ORDER}${ts ? `: ${table}` : ''} = {`;
    if (orders.length === 0) writer.writeLine(`${declaration}};`);
    else writeLines(writer, [declaration, ...orders, '};']);
  }
  const generics = '<N extends MessageName, V extends ViewName<N> = never>';
  // Plain JavaScript says its parameters' types in JSDoc: a consumer checking it (`checkJs`, strict) finds no implicit any.
  const runtime = `import(${stringLiteral(moduleSpecifier(RECORDS_RUNTIME, 'root', kind))})`;
  const functions = [
    {
      name: 'recordsQuery',
      docs: [
        'The parameters of a records query of the message type `name` (`cmd=getmsgs&msgType=<name>` and each',
        'clause given: `view`, `where`, `order`, `pkey`, `limit`) in the service\'s grammar, encoded once. The',
        'query is typed by the type\'s `<Name>QueryFields`: a misspelt field, an operator its kind does not',
        'take or an enum name outside its set does not compile. Throws a `RecordsError` of kind `query` for',
        'what the grammar cannot write (a `limit` outside 1..10000, a value holding `&`, `|` or a parenthesis).',
      ],
      parameters: ts ? `${generics}(name: N, query?: RecordsQuery<N, V>): QueryParams` : '(name, query)',
      jsDoc: ['', '@param {string} name', `@param {${runtime}.QueryInput} [query]`],
      body: `return queryParams(name, query, ${KEY_ORDER}[name]);`,
    },
    {
      name: 'fetchRecords',
      docs: [
        'Asks `{baseUrl}/rest/json` for the records of a query (`recordsQuery`) with the credentials',
        '(`options.apiKey`, `options.secret`), the global `fetch` (or `options.fetch`) and `options.signal`,',
        'and reads the answer as `parseRecords` does: each record of the type asked for, holding `pkey` and',
        'the fields of the view (all of them without one). Throws a `RecordsError`: `status` (an HTTP status',
        'other than 200, with a short excerpt; no key or secret is ever shown), `network`, `query`, or those of',
        '`parseRecords` (`failed` for a `QueryResult` that is not `Ok`).',
      ],
      parameters: ts ? `${generics}(baseUrl: string, name: N, query?: RecordsQuery<N, V>, options?: FetchRecordsOptions): FetchedRecordsOf<N, ViewedRecord<N, V>>` : '(baseUrl, name, query, options)',
      jsDoc: ['', '@param {string} baseUrl', '@param {string} name', `@param {${runtime}.QueryInput} [query]`, `@param {${runtime}.FetchRecordsOptions} [options]`],
      body: `return fetchAnswer(baseUrl, recordsQuery(name, query), recordSchemas, options)${ts ? ' as FetchedRecordsOf<N, ViewedRecord<N, V>>' : ''};`,
    },
  ];
  for (const fn of functions) {
    writer.blankLine();
    writeDocs(writer, ts ? fn.docs : [...fn.docs, ...fn.jsDoc]);
    if (kind === 'dts') writer.writeLine(`export declare function ${fn.name}${fn.parameters};`);
    else writeLines(writer, [`export function ${fn.name}${fn.parameters} {`, `  ${fn.body}`, '}']);
  }
}

/** Writes the types of records queries: `MessageQueryFields`, `ViewName`, `RecordsQuery` and `ViewedRecord`, blank lines before each. */
export function writeQueryApiTypes(writer: CodeBlockWriter, entries: readonly IndexEntry[], key: (entry: IndexEntry) => string): void {
  writer.blankLineIfLastNot();
  writeInterfaceOf(
    writer,
    { name: 'MessageQueryFields', docs: ['The query field table of every message type (`<Name>QueryFields`; `{}` for one a query names no', 'field of), keyed by its name as the service sends it.'] },
    entries,
    (entry) => memberLine({ name: key(entry), type: queryFieldsName(entry) ?? '{}' }),
  );
  const aliases = [
    {
      name: 'ViewName',
      docs: ['The names a `view` of the message type named `N` takes: its fields and its key fields.'],
      typeParameters: ['N extends MessageName'],
      type: 'ViewNameOf<MessageRecords[N]>',
    },
    {
      name: 'RecordsQuery',
      docs: [
        'A records query of the message type named `N` (`recordsQuery`, `fetchRecords`): `view` (the names',
        '`V`), `where`, `order`, `pkey` and `limit`, typed by its `<Name>QueryFields`.',
      ],
      typeParameters: ['N extends MessageName', 'V extends ViewName<N> = never'],
      type: 'RecordsQueryOf<MessageQueryFields[N], RecordKeyOf<MessageRecords[N]>, V>',
    },
    {
      name: 'ViewedRecord',
      docs: [
        'A record of the message type named `N` as a query with the view `V` returns it: `pkey` and the',
        'viewed fields (each may be absent), nothing else; without a view, the whole record.',
      ],
      typeParameters: ['N extends MessageName', 'V extends ViewName<N> = never'],
      type: 'ViewedRecordOf<MessageRecords[N], V>',
    },
  ];
  for (const alias of aliases) {
    writer.blankLineIfLastNot();
    writeTypeAlias(writer, alias);
  }
}

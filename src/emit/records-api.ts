/**
 * What the index exports of the records runtime with fields on: `recordSchemas` (each message
 * type's `<Name>RecordSchema`, by name), `parseRecords` and `safeParseRecords` (an answer's text →
 * its typed records and `QueryResult`), the runtime's `RecordsError` and types, and the types
 * `RecordSchemas` and `RecordsAnswer`. The work is the runtime's (`parseAnswer`); the index only
 * names the schemas of this listing and the types of its answers.
 */
import type { CodeBlockWriter } from 'ts-morph';

import type { ImportTracker } from './import-tracker.js';
import type { IndexEntry } from './index-file.js';
import { RECORDS_RUNTIME, recordSchemaName } from './record-checks.js';
import { moduleSpecifier, type ModuleKind } from './targets.js';
import { writeTypeAlias } from './type-declarations.js';
import { writeDocs, writeLines } from './writers.js';
import { stringLiteral } from '../text/safe-text.js';

/** The runtime's types the index re-exports (each reserved in `naming.ts`, as every name the index exports). */
const RUNTIME_TYPES = ['DriftFinding', 'ParseRecordsOptions', 'RecordIssue', 'RecordPath', 'RecordSchema', 'RecordsErrorKind', 'SafeParseResult'] as const;

/** Records what the index imports from and re-exports of the runtime. */
export function trackRecordsApi(shared: ImportTracker, kind: ModuleKind): void {
  const runtime = moduleSpecifier(RECORDS_RUNTIME, 'root', kind);
  shared.reexport('RecordsError', runtime);
  for (const name of RUNTIME_TYPES) shared.reexport(name, runtime, { type: true });
  shared.use('parseAnswer', runtime);
  shared.use('orThrow', runtime);
  for (const name of ['ParseRecordsOptions', 'RecordSchema', 'RecordsAnswerOf', 'SafeParseResult']) shared.use(name, runtime, { type: true });
}

/** The names a message module adds to the index's import or re-export of it: its record schema. */
export function schemaName(entry: IndexEntry): string {
  return recordSchemaName(entry.name.identifier);
}

/**
 * Writes `recordSchemas`, `parseRecords` and `safeParseRecords` (declarations in a `.d.ts`, plain
 * JavaScript in a `.js`), blank lines before each.
 * @param key - a message type's registry key (`registryKey`)
 */
export function writeRecordsApi(writer: CodeBlockWriter, entries: readonly IndexEntry[], kind: ModuleKind, key: (entry: IndexEntry) => string): void {
  const typed = (text: string) => (kind === 'js' ? '' : text);
  writer.blankLineIfLastNot();
  writeDocs(writer, ['The validator of every message type\'s records (`<Name>RecordSchema`), keyed by its name as the', 'service sends it.']);
  if (kind === 'dts') writer.writeLine('export declare const recordSchemas: RecordSchemas;');
  else if (entries.length === 0) writer.writeLine(`export const recordSchemas${typed(': RecordSchemas')} = {};`);
  else writeLines(writer, [`export const recordSchemas${typed(': RecordSchemas')} = {`, ...entries.map((entry) => `  ${key(entry)}: ${schemaName(entry)},`), '};']);
  const functions = [
    {
      name: 'parseRecords',
      docs: [
        'Reads the text of a records answer (`rest/json`, or framed `rest/jsonf`): its records, each',
        'checked against its type, and its `QueryResult`. Throws a `RecordsError`: `invalid` (not JSON, not',
        'an answer, a record that does not match its type: `issues` with paths), `failed` (the',
        '`QueryResult` is not `Ok`) or `truncated` (no `QueryResult` at the end, or fewer records than it',
        'says). Fields and enum names the lockfile does not know are reported to `options.onDrift`.',
      ],
      returns: 'RecordsAnswer',
      body: 'return orThrow(safeParseRecords(text, options));',
    },
    {
      name: 'safeParseRecords',
      docs: ['`parseRecords`, returning `{ success: true, data }` or `{ success: false, error }` instead of throwing.'],
      returns: 'SafeParseResult<RecordsAnswer>',
      body: `return parseAnswer(text, recordSchemas, options)${typed(' as SafeParseResult<RecordsAnswer>')};`,
    },
  ];
  // Plain JavaScript says its parameters' types in JSDoc: a consumer checking it (`checkJs`, strict) finds no implicit any.
  const runtime = stringLiteral(moduleSpecifier(RECORDS_RUNTIME, 'root', kind));
  const jsDoc = kind === 'js' ? ['', '@param {string} text', `@param {import(${runtime}).ParseRecordsOptions} [options]`] : [];
  for (const fn of functions) {
    writer.blankLine();
    writeDocs(writer, [...fn.docs, ...jsDoc]);
    const parameters = kind === 'js' ? '(text, options)' : `(text: string, options?: ParseRecordsOptions): ${fn.returns}`;
    if (kind === 'dts') writer.writeLine(`export declare function ${fn.name}${parameters};`);
    else writeLines(writer, [`export function ${fn.name}${parameters} {`, `  ${fn.body}`, '}']);
  }
}

/** Writes the types of the records API: `RecordSchemas` and `RecordsAnswer`, blank lines before each. */
export function writeRecordsApiTypes(writer: CodeBlockWriter): void {
  writer.blankLineIfLastNot();
  writeTypeAlias(writer, {
    name: 'RecordSchemas',
    docs: ['The type of `recordSchemas`: the validator of the records of each message type.'],
    type: '{ readonly [K in MessageName]: RecordSchema<MessageRecords[K]> }',
  });
  writer.blankLineIfLastNot();
  writeTypeAlias(writer, {
    name: 'RecordsAnswer',
    docs: [
      'A records answer as `parseRecords` reads it: `records` (narrow each with `isElementOf`), its',
      '`result` (`Ok`: any other is thrown) and the `drift` found (also told to `onDrift`).',
    ],
    type: 'RecordsAnswerOf<RecordElement>',
  });
}

/**
 * The declarations of the record types that every output with fields on shares: in `types.ts`,
 * the key interfaces (`TickerKey`, `ExpiryKey`, `OptionKey`) and the `QueryResult` element that
 * ends an answer; in the index, `isElementOf`, which tells an answer's elements apart.
 */
import type { CodeBlockWriter } from 'ts-morph';

import type { ModuleKind } from './targets.js';
import { writeInterface } from './type-declarations.js';
import { writeDocs } from './writers.js';

/**
 * Writes `isElementOf(element, mTyp)`: whether an element of an answer is of the type its header
 * names, narrowing it. TypeScript narrows a union by a property of the value itself, never by one
 * nested in it (`header.mTyp`), so the answer's elements need this guard to be told apart. A
 * declaration in `index.d.ts`, untyped in `index.js`.
 */
export function writeElementGuard(writer: CodeBlockWriter, kind: ModuleKind): void {
  writeDocs(writer, [
    'Whether an element of an answer is of the type named `mTyp` (its `header.mTyp`): narrows it to',
    "that type's element, a record of a message type or the `QueryResult`.",
    // In `index.js` the parameters are typed for a project that checks JavaScript (`checkJs`, strict: no implicit any).
    ...(kind === 'js' ? ['', '@param {{ header: { mTyp: string } }} element', '@param {string} mTyp', '@returns {boolean}'] : []),
  ]);
  const signature =
    kind === 'js'
      ? '(element, mTyp)'
      : "<E extends RecordElement | QueryResultElement, T extends E['header']['mTyp']>(element: E, mTyp: T): element is E extends { header: { mTyp: T } } ? E : never";
  if (kind === 'dts') {
    writer.writeLine(`export declare function isElementOf${signature};`);
    return;
  }
  writer.write(`export function isElementOf${signature} `).inlineBlock(() => writer.writeLine('return element.header.mTyp === mTyp;'));
  writer.newLine();
}

/**
 * Writes `QueryResultElement` and `UnknownEnumName`, blank lines before each. The status element
 * that ends a records answer holds a `QueryResultMessage`, the records runtime's (imported and
 * re-exported by `types.ts`: one type, which the parser returns too). Not named `QueryResult`:
 * listings describe a message type of that name.
 */
export function writeQueryResultTypes(writer: CodeBlockWriter): void {
  writer.blankLineIfLastNot();
  writeInterface(writer, {
    name: 'QueryResultElement',
    docs: ['The last element of an answer of the service: its `QueryResult`.'],
    properties: [
      { name: 'header', type: "{ mTyp: 'QueryResult' }" },
      { name: 'message', type: 'QueryResultMessage' },
    ],
  });
  writer.blankLineIfLastNot();
  writeDocs(writer, [
    'An enum name the lockfile does not list: what the service sends after a change this lockfile',
    'has not pulled. `parseRecords` keeps it here (`unknown`: the name as sent) and reports it to',
    "`onDrift`. A case of every enum field's type of its own, which no listed name compares equal",
    'to: code that handles each listed name still has to handle it, and a name the lockfile no',
    'longer lists does not compile where it is compared.',
  ]);
  writer.writeLine('export interface UnknownEnumName {').indent().write('readonly unknown: string;').newLine().write('}').newLine();
}

/**
 * Writes `TickerKey`, `ExpiryKey` and `OptionKey`, blank lines before each: the key fields of
 * records, as the service writes them in JSON (each key extends the one before).
 */
export function writeKeyInterfaces(writer: CodeBlockWriter): void {
  const key = (name: string, extendsName: string | undefined, doc: string, properties: Array<[string, string, string]>): void => {
    writer.blankLineIfLastNot();
    writeInterface(writer, {
      name,
      docs: [doc],
      ...(extendsName === undefined ? {} : { extends: extendsName }),
      properties: properties.map(([property, type, docs]) => ({ name: property, type, docs: [docs] })),
    });
  };
  key('TickerKey', undefined, 'A ticker key field of a record: asset type, ticker source and symbol.', [
    ['at', 'string', 'Asset type, e.g. `EQT`.'],
    ['ts', 'string', 'Ticker source, e.g. `NMS`.'],
    ['tk', 'string', 'Ticker symbol, e.g. `AAPL`.'],
  ]);
  key('ExpiryKey', 'TickerKey', 'An expiry key field of a record: a ticker key and an expiry date.', [['dt', 'string', 'Expiry date, `YYYY-MM-DD`.']]);
  key('OptionKey', 'ExpiryKey', 'An option key field of a record: an expiry key, a strike and call or put.', [
    ['xx', 'number', 'Strike price.'],
    ['cp', "'Call' | 'Put'", 'Call or put.'],
  ]);
}

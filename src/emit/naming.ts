/**
 * Safe identifiers and file names for message types.
 *
 * Rules, applied to each name on its own (so a name's identifier never depends on the others):
 *
 * 1. A name that is an ASCII identifier (`[A-Za-z_$][A-Za-z0-9_$]*`) and not reserved is kept.
 * 2. Otherwise each character that is not `[A-Za-z0-9_$]` is replaced: an ASCII one by `_`, a
 *    non-ASCII one by `_u` and its code point in uppercase hex (`Ü` → `_u00DC`); a leading digit
 *    gets a `_` prefix; an empty name becomes `_`.
 * 3. A result that is reserved gets a `_` prefix (`class` → `_class`, `CON` → `_CON`). Reserved
 *    are: JavaScript keywords and literals, strict-mode and module reserved words (`await`,
 *    `yield`, `let`, `static`, `implements`, …), `eval`/`arguments`, the globals `undefined`,
 *    `NaN`, `Infinity`, `globalThis`, TypeScript's predefined type names (`string`, `any`, …,
 *    which cannot name a type alias), `as` (`export type as` does not parse), `__proto__`, the
 *    names the generated index exports (`messages`, `MessageDescriptor`, …) and Windows device
 *    names (`CON`, `NUL`, `COM1`, `LPT1`, … in any case), which cannot be file names there.
 *
 * Two names with the same identifier are an {@link EmitError} naming both.
 *
 * The file stem is the identifier, with two exceptions: identifiers that are equal ignoring case
 * (`Order`, `order`) would share a file on macOS and Windows, so every member of such a group gets
 * `__` and the first 8 hex digits of the SHA-256 of its original name appended; and an identifier
 * longer than {@link MAX_STEM_LENGTH} is cut and gets the same suffix, so the file name stays
 * within the 255-byte limit of common file systems. Stems are ASCII `[A-Za-z0-9_$]` only, so they
 * contain no path separator, no dot and cannot leave the `messages/` folder.
 *
 * A lockfile may record a type's stem (`$file`, `Lockfile.fileStems`) where it is not the rule's,
 * one of the name's own two (with the suffix or without): a type keeps the file it has when a
 * pull adds a type whose name differs from its only by case, and the newcomer alone gets the
 * suffix ({@link keptStems}), so deep imports of `messages/<Name>.js` keep working.
 */
import { EmitError } from '../model/errors.js';
import { hashOf } from '../util/hash.js';
import { quoteString } from '../text/safe-text.js';
import { msg } from '../model/message.js';
import { compareStrings } from '../util/compare-strings.js';

/** The safe names of one message type. */
export interface PlannedName {
  /** The identifier of the generated constant and type. */
  identifier: string;
  /** The file name without `.ts` in `messages/`. */
  fileStem: string;
}

/** Identifiers the generated index exports itself: a message type cannot take them. */
export const GENERATED_EXPORTS = [
  'messages',
  'messagesByNumber',
  'messageNames',
  'MessageName',
  'MessageNumber',
  'MessageToken',
  'MessageAction',
  'MessageDescriptor',
  'MessageByName',
  'MessageByNumber',
  'KnownMessageAction',
  // With fields on (the same for every output, so a name's identifier never depends on settings):
  'MessageRecords',
  'RecordByName',
  'RecordElement',
  'RecordsResponse',
  'QueryResultMessage',
  'QueryResultElement',
  'isElementOf',
  'TickerKey',
  'ExpiryKey',
  'OptionKey',
  // The records API (records-api.ts), written out: this module is the list's one place.
  'parseRecords',
  'safeParseRecords',
  'recordSchemas',
  'RecordSchemas',
  'RecordsAnswer',
  'RecordsError',
  'UnknownEnumName',
  'DriftFinding',
  'ParseRecordsOptions',
  'RecordIssue',
  'RecordPath',
  'RecordSchema',
  'RecordsErrorKind',
  'SafeParseResult',
  // Records queries (records-query-api.ts).
  'recordsQuery',
  'fetchRecords',
  'MessageQueryFields',
  'ViewName',
  'RecordsQuery',
  'ViewedRecord',
  'FetchRecordsOptions',
  'QueryOperators',
] as const;

/** What the generated modules import from the records runtime (or the index declares) besides what the index exports: no message type takes them either. */
const RUNTIME_IMPORTS = [
  'recordSchema',
  'checkQueryResult',
  'Checker',
  'parseAnswer',
  'orThrow',
  'RecordsAnswerOf',
  'queryParams',
  'fetchAnswer',
  'FetchedRecordsOf',
  'QueryParams',
  'RecordKeyOf',
  'RecordsQueryOf',
  'ViewedRecordOf',
  'ViewNameOf',
  // The index's own table of key field orders (records-query-api.ts).
  'recordKeys',
];

const RESERVED: ReadonlySet<string> = new Set([
  // ECMAScript keywords and literals
  ...'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with'.split(
    ' ',
  ),
  // reserved in strict mode and at the top level of a module (generated files are modules)
  ...'implements interface let package private protected public static yield await'.split(' '),
  // cannot be bound in strict mode / global values a constant must not shadow
  ...'eval arguments undefined NaN Infinity globalThis'.split(' '),
  // TypeScript: predefined type names cannot name a type alias; `export type as` does not parse
  ...'any unknown never string number boolean symbol bigint object as'.split(' '),
  // sets the prototype when used as a plain key; not worth the surprise as an export name
  '__proto__',
  ...GENERATED_EXPORTS,
  ...RUNTIME_IMPORTS,
]);

/** Windows device names, reserved as file names with any extension and in any case. */
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

const ASCII_IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const IDENTIFIER_CHAR = /^[A-Za-z0-9_$]$/;

/** Longest file stem before it is cut and suffixed; `.ts` and a suffix still fit in 255 bytes. */
export const MAX_STEM_LENGTH = 200;

/** True when `identifier` may not be used as-is for a message type. */
function isReserved(identifier: string): boolean {
  return RESERVED.has(identifier) || WINDOWS_DEVICE.test(identifier);
}

/** The safe identifier of one message name (rules 1–3 above). */
export function toIdentifier(name: string): string {
  if (ASCII_IDENTIFIER.test(name) && !isReserved(name)) return name;
  let out = '';
  for (const char of name) {
    if (IDENTIFIER_CHAR.test(char)) out += char;
    else if (char.charCodeAt(0) < 0x80) out += '_';
    else out += '_u' + char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
  }
  if (out === '' || /^[0-9]/.test(out)) out = '_' + out;
  return isReserved(out) ? '_' + out : out;
}

/** `__` and 8 hex digits of the SHA-256 of the original name: stable across runs and machines. */
function nameSuffix(name: string): string {
  return '__' + hashOf(name).slice(0, 8);
}

/** A name as it can be shown in a message: quoted, with every unsafe character escaped (`quoteString`). */
export function showName(name: string): string {
  return quoteString(name);
}

/** A name's stem as case-insensitive file systems compare it: names equal so would share a file. */
function foldedStem(identifier: string): string {
  return identifier.slice(0, MAX_STEM_LENGTH).toLowerCase();
}

/** A name's stem with the suffix: its identifier, cut, and the hash of the name. */
function suffixedStem(name: string, identifier: string): string {
  return identifier.slice(0, MAX_STEM_LENGTH) + nameSuffix(name);
}

/** A name's stem without the suffix: its identifier (suffixed all the same when too long). */
function plainStem(name: string, identifier: string): string {
  return identifier.length > MAX_STEM_LENGTH ? suffixedStem(name, identifier) : identifier;
}

/** Whether `stem` is one of the two a name may have (a recorded stem must be). */
function isStemOf(name: string, identifier: string, stem: string): boolean {
  return stem === plainStem(name, identifier) || stem === suffixedStem(name, identifier);
}

/** The names (given sorted, with their identifiers) by their folded stem: a group of two or more would share a file. */
function caseGroups(identifiers: ReadonlyMap<string, string>): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const name of identifiers.keys()) {
    const folded = foldedStem(identifiers.get(name)!);
    const group = groups.get(folded);
    if (group) group.push(name);
    else groups.set(folded, [name]);
  }
  return groups;
}

/**
 * The stem of each name (given sorted, with its identifier) by the rule alone: suffixed when another
 * name's stem differs from its only by case, or when it is too long. Never throws: names that
 * share an identifier are {@link planNames}' to refuse.
 */
function ruleStems(identifiers: ReadonlyMap<string, string>): Map<string, string> {
  const sharing = new Map<string, number>();
  // Each name's folded stem, in the names' order: folded once.
  const folded: string[] = [];
  for (const identifier of identifiers.values()) {
    const stem = foldedStem(identifier);
    folded.push(stem);
    sharing.set(stem, (sharing.get(stem) ?? 0) + 1);
  }
  const stems = new Map<string, string>();
  let i = 0;
  for (const [name, identifier] of identifiers) {
    stems.set(name, sharing.get(folded[i++]!)! > 1 ? suffixedStem(name, identifier) : plainStem(name, identifier));
  }
  return stems;
}

/** Each name's identifier, the names sorted. */
function identifiersOf(names: readonly string[]): Map<string, string> {
  const identifiers = new Map<string, string>();
  for (const name of [...names].sort(compareStrings)) identifiers.set(name, toIdentifier(name));
  return identifiers;
}

/** Whether two of `names` would share a file by the rule (so their stems get the suffix). */
export function shareFileByCase(names: readonly string[]): boolean {
  const folded = new Set<string>();
  for (const name of names) {
    const stem = foldedStem(toIdentifier(name));
    if (folded.has(stem)) return true;
    folded.add(stem);
  }
  return false;
}

/**
 * The file stem of each name as {@link planNames} gives it with the `recorded` stems, except that
 * it never throws: a recorded stem that is not one of its name's is left out. What the output of
 * a lockfile has, to keep at the next pull.
 */
export function fileStemsOf(names: readonly string[], recorded: ReadonlyMap<string, string>): Map<string, string> {
  const identifiers = identifiersOf(names);
  const stems = ruleStems(identifiers);
  for (const [name, stem] of recorded) {
    const identifier = identifiers.get(name);
    if (identifier !== undefined && isStemOf(name, identifier, stem)) stems.set(name, stem);
  }
  return stems;
}

/** What a new lockfile records of its types' files ({@link keptStems}), and what a report tells of them. */
export interface KeptStems {
  /** The stems to record (`Lockfile.fileStems`): those that are not the rule's, by name. */
  fileStems: Map<string, string>;
  /**
   * Each newcomer whose stem has the suffix because its name and another's would share a file on
   * a case-insensitive file system, with that other name (one that was there before, if any).
   */
  sharedCase: Map<string, { fileStem: string; other: string }>;
}

/**
 * The file stems of `names` after a pull, from `before` (each name of the previous output with
 * its stem, {@link fileStemsOf}): a name that had a stem keeps it, so deep imports of its module
 * keep working; a newcomer gets the rule's, which has the suffix when its name differs from
 * another's only by case (among newcomers alone, the rule decides as ever). A type keeps its stem
 * also once the type it differed from only by case is gone: a file name stays as long as its
 * type does. Never throws: names {@link planNames} refuses are its to refuse.
 */
export function keptStems(names: readonly string[], before: ReadonlyMap<string, string>): KeptStems {
  const identifiers = identifiersOf(names);
  const rule = ruleStems(identifiers);
  const fileStems = new Map<string, string>();
  for (const [name, stem] of rule) {
    const kept = before.get(name);
    if (kept !== undefined && kept !== stem) fileStems.set(name, kept);
  }
  const sharedCase = new Map<string, { fileStem: string; other: string }>();
  for (const group of caseGroups(identifiers).values()) {
    if (group.length < 2) continue;
    for (const name of group) {
      if (before.has(name)) continue;
      const other = group.find((o) => o !== name && before.has(o)) ?? group.find((o) => o !== name)!;
      sharedCase.set(name, { fileStem: rule.get(name)!, other });
    }
  }
  return { fileStems, sharedCase };
}

/**
 * Plans the identifier and file stem of every message name (see the module comment for the
 * rules), with the stems a lockfile records (`recorded`, by name) where they are not the rule's.
 * Deterministic, independent of the order of `names`.
 *
 * @throws EmitError when a name occurs twice, two names map to the same identifier or file, or a
 * recorded stem is not one of its name's.
 */
export function planNames(names: readonly string[], recorded: ReadonlyMap<string, string> = new Map()): ReadonlyMap<string, PlannedName> {
  const sorted = [...names].sort(compareStrings);
  const byIdentifier = new Map<string, string>();
  // Each name's identifier, in the names' order.
  const identifiers = new Map<string, string>();
  for (const name of sorted) {
    const identifier = toIdentifier(name);
    const other = byIdentifier.get(identifier);
    if (other === name) {
      throw new EmitError(msg`Message type ${showName(name)} occurs twice in the listing.`, {
        hint: msg`Each message type must be listed once; check the listing or the lockfile.`,
      });
    }
    if (other !== undefined) {
      throw new EmitError(
        msg`Message types ${showName(other)} and ${showName(name)} both map to the identifier ${identifier}, so their generated constants would clash.`,
        { hint: msg`Rename one of them on the server, or narrow the listing (--where) to leave one out.` },
      );
    }
    byIdentifier.set(identifier, name);
    identifiers.set(name, identifier);
  }
  const stems = ruleStems(identifiers);
  const plan = new Map<string, PlannedName>();
  const stemOwners = new Map<string, string>();
  for (const [name, identifier] of identifiers) {
    const kept = recorded.get(name);
    if (kept !== undefined && !isStemOf(name, identifier, kept)) {
      throw new EmitError(
        msg`The lockfile gives message type ${showName(name)} the file stem ${showName(kept)}, which is not one of its own (${plainStem(name, identifier)} or ${suffixedStem(name, identifier)}).`,
        { hint: msg`Restore the lockfile from version control, or remove the entry's "$file" and run \`schema-sync generate\`.` },
      );
    }
    const fileStem = kept ?? stems.get(name)!;
    const foldedFile = fileStem.toLowerCase();
    const owner = stemOwners.get(foldedFile);
    if (owner !== undefined) {
      // Only reachable when a suffixed stem equals another name's plain stem, or a lockfile
      // edited by hand records two plain stems that differ only by case.
      throw new EmitError(
        msg`Message types ${showName(owner)} and ${showName(name)} both map to the file messages/${fileStem}.ts (file names are compared ignoring case).`,
        { hint: msg`Rename one of them on the server, or narrow the listing (--where) to leave one out.` },
      );
    }
    stemOwners.set(foldedFile, name);
    plan.set(name, { identifier, fileStem });
  }
  return plan;
}

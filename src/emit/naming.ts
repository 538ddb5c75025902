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
 */
import { EmitError } from '../model/errors.js';
import { hashOf } from '../util/hash.js';
import { quoteString } from '../text/safe-text.js';
import { msg } from '../model/message.js';

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
] as const;

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

/**
 * Plans the identifier and file stem of every message name (see the module comment for the
 * rules). Deterministic, independent of the order of `names`.
 *
 * @throws EmitError when a name occurs twice or two names map to the same identifier.
 */
export function planNames(names: readonly string[]): ReadonlyMap<string, PlannedName> {
  const sorted = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const byIdentifier = new Map<string, string>();
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
  }

  // Group by the case-folded stem to find names that would share a file on macOS/Windows.
  const byFolded = new Map<string, string[]>();
  for (const [identifier, name] of byIdentifier) {
    const folded = identifier.slice(0, MAX_STEM_LENGTH).toLowerCase();
    const group = byFolded.get(folded);
    if (group) group.push(name);
    else byFolded.set(folded, [name]);
  }

  const plan = new Map<string, PlannedName>();
  const stemOwners = new Map<string, string>();
  for (const [identifier, name] of byIdentifier) {
    const folded = identifier.slice(0, MAX_STEM_LENGTH).toLowerCase();
    const needsSuffix = identifier.length > MAX_STEM_LENGTH || byFolded.get(folded)!.length > 1;
    const fileStem = needsSuffix
      ? identifier.slice(0, MAX_STEM_LENGTH) + nameSuffix(name)
      : identifier;
    const owner = stemOwners.get(fileStem.toLowerCase());
    if (owner !== undefined) {
      // Only reachable when a suffixed stem equals another name's plain stem.
      throw new EmitError(
        msg`Message types ${showName(owner)} and ${showName(name)} both map to the file messages/${fileStem}.ts (file names are compared ignoring case).`,
        { hint: msg`Rename one of them on the server, or narrow the listing (--where) to leave one out.` },
      );
    }
    stemOwners.set(fileStem.toLowerCase(), name);
    plan.set(name, { identifier, fileStem });
  }
  return plan;
}

import { z } from 'zod';
import { ACTION_LETTERS, KNOWN_ACTIONS } from './actions.js';
import { FIELD_TYPES } from './field-types.js';
import { jsonText } from '../text/safe-text.js';
import { compareStrings } from '../util/compare-strings.js';
import { msg, own, type Message } from './message.js';

/**
 * The ways real deployments write `actions` and the yes/no key flags (SPEC "The service, as real
 * deployments behave"), read into the model's values. The wire schema has checked the JSON
 * types already; this reads the text.
 *
 * `actions` is the flag enum `MLinkActions` (Select = 1, Insert = 2, Update = 4, Replace = 8,
 * Delete = 16). A value is a string, a number or an array of strings and numbers; a string is a
 * list of tokens separated by commas, pipes or white space, and each token is one of:
 *
 * - a bit mask in decimal digits, 0 to 31 (`31`, `"3"`);
 * - a flag name in any case (`Select`, `SELECT`), or the enum's prefixed name (`MLINKACTIONS_SELECT`);
 * - action letters (`SIURD` in any order, upper or lower case, not mixed); one letter that is
 *   not one of them is kept as itself and warned about (a newer server's action), but a token
 *   with two different unknown letters is a misspelt name, not letters (`Selct`, `SELCT`).
 *
 * The actions of all tokens and items are merged: the result holds each known action once, in
 * the enum's bit order, then the unknown letters, sorted. An empty string or array is no actions.
 */

/** The result of reading `actions`: the normalised list and its unknown letters, or a problem. */
export type ReadActions = { actions: string[]; unknownLetters: string[] } | { problem: Message };

/** What a whole `actions` value may be, as the wire schema lets through. */
export type ActionsValue = string | number | ReadonlyArray<string | number>;

const SEPARATORS = /[\s,|]+/;
const DIGITS = /^\d+$/;
/** One case only: `SIURD` or `siurd`; `Ides` is no list of letters. */
const LETTERS = /^(?:[A-Z]+|[a-z]+)$/;
const ALL_BITS = (1 << KNOWN_ACTIONS.length) - 1;

/** Lower-case flag names and prefixed enum names → bit. */
const NAME_BITS = new Map<string, number>(
  KNOWN_ACTIONS.flatMap((name, bit) => [
    [name, 1 << bit],
    [`mlinkactions_${name}`, 1 << bit],
  ]),
);

/** Upper-case letter → bit. */
const LETTER_BITS = new Map<string, number>(
  Object.entries(ACTION_LETTERS).map(([letter, name]) => [letter, 1 << KNOWN_ACTIONS.indexOf(name)]),
);

/** What `actions` may be, for messages. */
export const ACTIONS_EXPECTED = `expected action letters ("SIURD"), flag names separated by commas, pipes or spaces ("Select,Insert", "MLINKACTIONS_SELECT"), a bit mask 0..${ALL_BITS}, or an array of these`;

const actionItem = z.union([z.string(), z.number()]);

/** What the wire schema lets through for `actions`; {@link readActions} reads its text. */
export const actionsValue = z.union([actionItem, z.array(actionItem)], { error: ACTIONS_EXPECTED });

/** Reads an `actions` value in any of the encodings above. */
export function readActions(value: ActionsValue): ReadActions {
  let bits = 0;
  const unknown: string[] = [];
  for (const item of typeof value === 'object' ? value : [value]) {
    const tokens = typeof item === 'number' ? [item] : item.split(SEPARATORS);
    for (const token of tokens) {
      if (token === '') continue;
      const read = typeof token === 'number' ? maskBits(token) : tokenBits(token, unknown);
      if (read === undefined) {
        // The part that fails, when the value has more than one (the caller shows the whole value).
        return { problem: token === value ? own(ACTIONS_EXPECTED) : msg`${own(ACTIONS_EXPECTED)}; ${jsonText(token)} is none of these` };
      }
      bits |= read;
    }
  }
  const letters = unknown.length === 0 ? unknown : [...new Set(unknown)].sort(compareStrings);
  // A copy: the descriptor owns its list.
  const actions = ACTIONS_BY_BITS[bits]!.slice();
  return { actions: letters.length === 0 ? actions : actions.concat(letters), unknownLetters: letters };
}

/** The known actions of each bit mask, in the enum's bit order. */
const ACTIONS_BY_BITS: ReadonlyArray<readonly string[]> = Array.from({ length: ALL_BITS + 1 }, (_, bits) => KNOWN_ACTIONS.filter((_, bit) => bits & (1 << bit)));

/** The bits of one string token, or undefined when it is no encoding of actions. */
function tokenBits(token: string, unknown: string[]): number | undefined {
  if (DIGITS.test(token)) return maskBits(Number(token));
  return NAME_BITS.get(token.toLowerCase()) ?? letterBits(token, unknown);
}

/** A mask 0..31: the enum has no other bits. */
function maskBits(mask: number): number | undefined {
  return Number.isInteger(mask) && mask >= 0 && mask <= ALL_BITS ? mask : undefined;
}

/** The bits of a token of action letters; its one unknown letter, if any, goes to `unknown`. */
function letterBits(token: string, unknown: string[]): number | undefined {
  if (!LETTERS.test(token)) return undefined;
  let bits = 0;
  let other: string | undefined;
  for (const letter of token) {
    const bit = LETTER_BITS.get(letter.toUpperCase());
    if (bit !== undefined) bits |= bit;
    else if (other === undefined || other === letter) other = letter;
    else return undefined;
  }
  if (other !== undefined) unknown.push(other);
  return bits;
}

/**
 * A list as services write it (`staticFilterFields`, a field's `eSet`): a comma-separated string
 * (may be empty) or an array of strings; items trimmed, empty ones dropped.
 */
export function readList(value: string | readonly string[]): string[] {
  return (typeof value === 'string' ? value.split(',') : value).map((item) => item.trim()).filter((item) => item.length > 0);
}

/** What the wire schema lets through for a list: a comma-separated string or an array of strings. */
export const listValue = z.union([z.string(), z.array(z.string())], { error: 'expected a comma-separated string or an array of strings' });

/** The yes/no flag values the wire schema accepts as text (any case, surrounding spaces allowed). */
export const FLAG_TEXT = /^\s*(?:yes|no|yesno_yes|yesno_no|1|2)\s*$/i;

const FLAG_MESSAGE = 'expected "Yes" or "No" (any case), a boolean, YESNO_YES or YESNO_NO, or 1 (yes) or 2 (no)';

/**
 * What the wire schema lets through for a yes/no flag; {@link readFlag} reads it. String first:
 * services send "Yes"/"No", and a union tries its options in order.
 */
export const flagValue = z.union([z.string().regex(FLAG_TEXT, { error: FLAG_MESSAGE }), z.boolean(), z.literal([1, 2])], { error: FLAG_MESSAGE });

/** What the wire schema lets through for a yes/no flag. */
export type FlagValue = string | boolean | number;

/**
 * A yes/no flag as a boolean: `true`/`false`, `"Yes"`/`"No"` in any case, `YESNO_YES`/`YESNO_NO`,
 * and the enum's numbers 1 (yes) and 2 (no), also as text. The wire schema has checked it is one
 * of these.
 */
export function readFlag(value: FlagValue): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1;
  const text = value.trim().toLowerCase();
  return text === 'yes' || text === 'yesno_yes' || text === '1';
}

const INTEGER_MESSAGE = 'expected a non-negative integer';

/** What the wire schema lets through for a non-negative integer a service may also write as text (`"10"`); `Number` reads it. */
export const integerValue = z.union(
  [
    z.number().int({ error: INTEGER_MESSAGE }).nonnegative({ error: INTEGER_MESSAGE }).max(Number.MAX_SAFE_INTEGER, { error: INTEGER_MESSAGE }),
    z.string().regex(/^\s*\d{1,15}\s*$/, { error: INTEGER_MESSAGE }),
  ],
  { error: INTEGER_MESSAGE },
);

/** Lower-case name, without the `FIELDTYPE_` prefix → field type. */
const TYPE_BY_NAME: ReadonlyMap<string, string> = new Map(FIELD_TYPES.map((type) => [type.toLowerCase(), type]));

/**
 * A field type from the ways a server may write it: a name in any case (`Double`, `DOUBLE`), the
 * enum's prefixed name (`FIELDTYPE_DOUBLE`), or its number 1–21 (also as text).
 * @returns the type's name, or undefined when it is none of these
 */
export function readFieldType(value: string | number): string | undefined {
  const text = String(value).trim();
  if (/^\d+$/.test(text)) return FIELD_TYPES[Number(text) - 1];
  return TYPE_BY_NAME.get(text.toLowerCase().replace(/^fieldtype_/, ''));
}

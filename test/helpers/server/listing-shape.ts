/**
 * Listing shapes: the tests' reference server (`test-server.ts`) plays deployments that write
 * descriptors differently (SPEC "The service, as real deployments behave"). The listing file
 * holds `actions` as letters (`SIURD`) and flags as `Yes`/`No`; a shape rewrites each served
 * message, leaving values it does not recognise as they are (a test may serve bad elements on
 * purpose). Pure: the listing shared between requests is never mutated.
 */

import { ACTION_LETTERS, KNOWN_ACTIONS, setOwn } from '../../../src/model/descriptor.js';
import { isRecord } from '../../../src/server/listing.js';

/** How `actions` are written: every encoding real servers use. */
export const ACTIONS_ENCODINGS = ['letters', 'names', 'names-pipes', 'names-spaces', 'enum', 'mask', 'mask-string', 'array'] as const;
/** One way of writing `actions` (`names`: `Select,Insert`; `names-pipes`: `SELECT|INSERT`; `names-spaces`: `select insert`; `enum`: `MLINKACTIONS_SELECT,MLINKACTIONS_INSERT`; `mask`: `3`; `mask-string`: `"3"`; `array`: `["MLINKACTIONS_SELECT", "MLINKACTIONS_INSERT"]`). */
export type ActionsEncoding = (typeof ACTIONS_ENCODINGS)[number];

/** How yes/no key flags are written. */
export const FLAG_ENCODINGS = ['yes-no', 'boolean', 'enum', 'number'] as const;
/** One way of writing a key flag (`yes-no`: `"Yes"`; `boolean`: `true`; `enum`: `"YESNO_YES"`; `number`: `1` yes, `2` no). */
export type FlagEncoding = (typeof FLAG_ENCODINGS)[number];

/** How the served listing differs from the file's. */
export interface ListingShape {
  /**
   * Serve what an older deployment lists: only `pkey`, `name`, `mNum`, `schemaHash`, `hasTKey`,
   * `hasEKey`, `hasOKey` and a category `mCat`, under the header key `mTyp`.
   */
  older?: boolean;
  /** Rewrite `actions` letters in this encoding. @default 'letters' (as in the file) */
  actions?: ActionsEncoding;
  /** Rewrite the key flags in this encoding. @default 'yes-no' (as in the file) */
  flags?: FlagEncoding;
}

const OLDER_FIELDS = new Set(['pkey', 'name', 'mNum', 'schemaHash', 'hasTKey', 'hasEKey', 'hasOKey', 'mCat']);
const FLAGS = ['hasTKey', 'hasEKey', 'hasOKey', 'hasCF'];

/** The listing as a deployment of this shape serves it; the listing itself when no shape is set. */
export function shapeListing(listing: unknown[], shape: ListingShape | undefined): unknown[] {
  if (shape === undefined) return listing;
  return listing.map((element) => shapeElement(element, shape));
}

function shapeElement(element: unknown, shape: ListingShape): unknown {
  if (!isRecord(element) || !isRecord(element['message'])) return element;
  const message: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(element['message'])) {
    if (shape.older && !OLDER_FIELDS.has(key)) continue;
    if (key === 'actions' && shape.actions !== undefined) message[key] = encodeActions(value, shape.actions);
    else if (FLAGS.includes(key) && shape.flags !== undefined) message[key] = encodeFlag(value, shape.flags);
    else setOwn(message, key, value);
  }
  const header = shape.older && isRecord(element['header']) ? olderHeader(element['header']) : element['header'];
  return { ...element, header, message };
}

/** An older deployment's header: the short key `mTyp`. */
function olderHeader(header: Record<string, unknown>): Record<string, unknown> {
  const { msgType, ...rest } = header;
  return msgType === undefined ? header : { mTyp: msgType, ...rest };
}

const LETTER_NAMES: Readonly<Record<string, (typeof KNOWN_ACTIONS)[number]>> = ACTION_LETTERS;

function encodeActions(value: unknown, encoding: ActionsEncoding): unknown {
  if (typeof value !== 'string' || !/^[SIURD]*$/.test(value)) return value;
  const letters = [...value];
  const names = letters.map((letter) => LETTER_NAMES[letter]!);
  const enumNames = names.map((name) => `MLINKACTIONS_${name.toUpperCase()}`);
  const mask = names.reduce((bits, name) => bits | (1 << KNOWN_ACTIONS.indexOf(name)), 0);
  switch (encoding) {
    case 'letters':
      return value;
    case 'names':
      return names.map((name) => name[0]!.toUpperCase() + name.slice(1)).join(',');
    case 'names-pipes':
      return names.map((name) => name.toUpperCase()).join('|');
    case 'names-spaces':
      return names.join(' ');
    case 'enum':
      return enumNames.join(',');
    case 'mask':
      return mask;
    case 'mask-string':
      return String(mask);
    case 'array':
      return enumNames;
  }
}

function encodeFlag(value: unknown, encoding: FlagEncoding): unknown {
  const yes = value === true || (typeof value === 'string' && value.trim().toLowerCase() === 'yes');
  const no = value === false || (typeof value === 'string' && value.trim().toLowerCase() === 'no');
  if (!yes && !no) return value;
  switch (encoding) {
    case 'yes-no':
      return yes ? 'Yes' : 'No';
    case 'boolean':
      return yes;
    case 'enum':
      return yes ? 'YESNO_YES' : 'YESNO_NO';
    case 'number':
      return yes ? 1 : 2;
  }
}

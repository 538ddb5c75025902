import { ACTION_LETTERS, compareStrings, KNOWN_FIELDS, setOwn, type Descriptor } from '../model/descriptor.js';
import type { WireMessage } from './wire-schema.js';

/**
 * Turns a validated wire message into the internal model. Known action letters become names;
 * an unknown letter is kept as itself (and reported through `warn`), never dropped. Every field
 * the service sent beyond the known ones is kept, as received, in `extra`.
 */
export function normaliseMessage(
  message: WireMessage,
  raw: Record<string, unknown>,
  warn: (text: string) => void,
): Descriptor {
  const actions: string[] = [];
  const letters = Array.isArray(message.actions) ? message.actions : [...message.actions.replace(/[\s,]/g, '')];
  for (const letter of letters) {
    const known = ACTION_LETTERS[letter.toUpperCase() as keyof typeof ACTION_LETTERS];
    if (known) {
      actions.push(known);
    } else if (Object.values(ACTION_LETTERS).includes(letter as never)) {
      actions.push(letter);
    } else {
      warn(`message ${JSON.stringify(message.name)}: unknown action letter ${JSON.stringify(letter)} kept as is (known: SIURD).`);
      actions.push(letter);
    }
  }
  return {
    name: message.name,
    mNum: message.mNum,
    schemaHash: message.schemaHash,
    actions,
    hasTKey: flagValue(message.hasTKey),
    hasEKey: flagValue(message.hasEKey),
    hasOKey: flagValue(message.hasOKey),
    hasCF: flagValue(message.hasCF),
    mToken: message.mToken,
    staticFilterFields: listValue(message.staticFilterFields),
    extra: unknownFields(raw),
  };
}

/** `"Yes"`/`"No"` in any case (already validated), or a real boolean. */
function flagValue(value: boolean | string): boolean {
  return typeof value === 'boolean' ? value : value.trim().toLowerCase() === 'yes';
}

/** The service's comma list (may be empty), or an array as is. */
function listValue(value: string | string[]): string[] {
  if (Array.isArray(value)) return [...value];
  return value.split(',').map((part) => part.trim()).filter((part) => part.length > 0);
}

const KNOWN = new Set<string>(KNOWN_FIELDS);

/** The fields of a raw message that the model does not define, keys sorted. */
export function unknownFields(raw: Record<string, unknown>): Record<string, unknown> {
  const known = KNOWN;
  const extra: Record<string, unknown> = {};
  // Only the few unknown keys are sorted, not all of a message's keys.
  for (const key of Object.keys(raw).filter((k) => !known.has(k)).sort(compareStrings)) {
    // defineProperty, not assignment: a field called `__proto__` must stay an own data property.
    setOwn(extra, key, sortKeysDeep(raw[key]));
  }
  return extra;
}

/**
 * Nested objects with their keys sorted, as the lockfile stores them: a descriptor then has the
 * same shape whether it was fetched or read back, so its JSON is a stable fingerprint.
 */
function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort(compareStrings)) {
    setOwn(out, key, sortKeysDeep((value as Record<string, unknown>)[key]));
  }
  return out;
}

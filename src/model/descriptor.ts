/**
 * The internal model every stage shares: one message type's descriptor, normalised.
 * The fetch stage produces it from the wire shape, the lockfile stores it, the diff stage
 * compares it and the emitter turns it into TypeScript.
 */

/** Action names the service encodes as the letters `SIURD`. */
export const ACTION_LETTERS = {
  S: 'select',
  I: 'insert',
  U: 'update',
  R: 'replace',
  D: 'delete',
} as const;

/** A normalised message-type descriptor. */
export interface Descriptor {
  /** The message type's name, exactly as the service sent it. */
  name: string;
  /** The message number. */
  mNum: number;
  /** Hash of the message's schema; changes whenever the schema changes. */
  schemaHash: string;
  /**
   * Actions in the order the service listed them: known letters become their names
   * (`select`, `insert`, …); an unknown letter is kept as itself.
   */
  actions: string[];
  hasTKey: boolean;
  hasEKey: boolean;
  hasOKey: boolean;
  hasCF: boolean;
  /** The token group the message belongs to. */
  mToken: string;
  /** Static filter fields, split from the service's comma list. */
  staticFilterFields: string[];
  /**
   * Every other field of the message as received (`desc`, `topic`, `pkey`, …), keys sorted.
   * `desc`, when a string, becomes the TSDoc of the generated constant.
   */
  extra: Record<string, unknown>;
}

/** The descriptor fields the service defines, in the order the lockfile and emitter use. */
export const KNOWN_FIELDS = [
  'name',
  'mNum',
  'schemaHash',
  'actions',
  'hasTKey',
  'hasEKey',
  'hasOKey',
  'hasCF',
  'mToken',
  'staticFilterFields',
] as const;

/** A field of {@link Descriptor} other than `extra`. */
export type KnownField = (typeof KNOWN_FIELDS)[number];

/** Compares strings by UTF-16 code units: deterministic everywhere, unlike `localeCompare`. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sorts descriptors by name so nothing downstream depends on the server's order. */
export function sortDescriptors(descriptors: readonly Descriptor[]): Descriptor[] {
  return [...descriptors].sort((a, b) => compareStrings(a.name, b.name));
}

/** The description of a descriptor, when the service sent one as a string. */
export function descriptionOf(descriptor: Descriptor): string | undefined {
  const desc = descriptor.extra['desc'];
  return typeof desc === 'string' ? desc : undefined;
}

/**
 * Sets an own data property. Plain assignment, except for `__proto__`, where assignment would
 * set the prototype instead: defineProperty for every key makes objects slow (dictionary mode),
 * and a listing has tens of thousands of them.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

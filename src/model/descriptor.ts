import type { FieldDescriptor } from './field.js';

/**
 * The internal model every stage shares: one message type's descriptor, normalised.
 * The fetch stage produces it from the wire shape, the lockfile stores it, the diff stage
 * compares it and the emitter turns it into TypeScript.
 */

/**
 * The actions of the service's flag enum `MLinkActions`, in bit order (Select = 1, Insert = 2,
 * Update = 4, Replace = 8, Delete = 16). Also the canonical order of a normalised `actions`
 * list: however the service wrote them (letters, names, a mask), known actions come in this order.
 */
export const KNOWN_ACTIONS = ['select', 'insert', 'update', 'replace', 'delete'] as const;

/** Action names the service encodes as the letters `SIURD`. */
export const ACTION_LETTERS = {
  S: 'select',
  I: 'insert',
  U: 'update',
  R: 'replace',
  D: 'delete',
} as const;

/**
 * A normalised message-type descriptor. Only `name`, `mNum` and `schemaHash` are always there;
 * every other known field is present only when the service sent it (deployments differ, and
 * absent is not empty: an older deployment sends no `actions` at all, which is not "no actions").
 */
export interface Descriptor {
  /** The message type's name, exactly as the service sent it. */
  name: string;
  /** The message number. */
  mNum: number;
  /** Hash of the message's schema; changes whenever the schema changes. */
  schemaHash: string;
  /**
   * Known actions (`select`, `insert`, …) in the order of {@link KNOWN_ACTIONS}, each once,
   * then unknown action letters, each kept as itself, sorted.
   */
  actions?: string[];
  hasTKey?: boolean;
  hasEKey?: boolean;
  hasOKey?: boolean;
  hasCF?: boolean;
  /** The token group the message belongs to. */
  mToken?: string;
  /** Static filter fields, split from the service's comma list. */
  staticFilterFields?: string[];
  /**
   * Every other field of the message as received (`desc`, `topic`, `pkey`, `mCat`, …), keys
   * sorted. `desc`, when a string, becomes the TSDoc of the generated constant.
   */
  extra: Record<string, unknown>;
  /**
   * The message's fields as `cmd=getschema` describes them, in record order (`sortFields`): only
   * when fields are on (`--fields`); absent otherwise. Last, so a descriptor's JSON has the same
   * key order whether it was fetched or read from the lockfile.
   */
  fields?: FieldDescriptor[];
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

/** The known fields of a descriptor; an optional one left out or given as `undefined` is absent. */
export type KnownValues = Omit<Descriptor, 'extra'>;

/**
 * Builds a descriptor with its keys in one fixed order (known fields in {@link KNOWN_FIELDS}
 * order, absent ones left out, then `extra`), whether it comes from the service or from the
 * lockfile: its JSON is then a stable fingerprint of its content.
 */
export function makeDescriptor(known: KnownValues, extra: Record<string, unknown>): Descriptor {
  // One plain store per field, not a loop over field names: a store by computed key is not
  // optimised the same way, and this runs once per descriptor of a listing.
  const d = { name: known.name, mNum: known.mNum, schemaHash: known.schemaHash } as Descriptor;
  if (known.actions !== undefined) d.actions = known.actions;
  if (known.hasTKey !== undefined) d.hasTKey = known.hasTKey;
  if (known.hasEKey !== undefined) d.hasEKey = known.hasEKey;
  if (known.hasOKey !== undefined) d.hasOKey = known.hasOKey;
  if (known.hasCF !== undefined) d.hasCF = known.hasCF;
  if (known.mToken !== undefined) d.mToken = known.mToken;
  if (known.staticFilterFields !== undefined) d.staticFilterFields = known.staticFilterFields;
  d.extra = extra;
  return d;
}

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
 * A copy of `raw` without the keys in `except`, keys sorted, each value as `value` gives it (as is
 * by default): e.g. the `extra` of a descriptor or a field (the keys the model does not know),
 * from the wire or the lockfile.
 */
export function sortedEntries(raw: Record<string, unknown>, except: ReadonlySet<string>, value: (raw: unknown) => unknown = (v) => v): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // Only the few keys kept are sorted, not all of an object's keys.
  for (const key of Object.keys(raw).filter((k) => !except.has(k)).sort(compareStrings)) setOwn(out, key, value(raw[key]));
  return out;
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

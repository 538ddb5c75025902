import { z } from 'zod';
import type { FieldDescriptor } from './field.js';
import { DESCRIPTOR_FIELDS, type KnownField, type KnownValues } from './descriptor-fields.js';
import { compareStrings } from '../util/compare-strings.js';

export { ACTION_LETTERS, KNOWN_ACTIONS } from './actions.js';
export type { KnownField, KnownValues } from './descriptor-fields.js';

/** The names of the known descriptor fields, in the field table's order (the lockfile's, the generated constant's and the diff's). */
export const KNOWN_FIELDS: readonly KnownField[] = DESCRIPTOR_FIELDS.map((row) => row.name);

/**
 * The internal model every stage shares: one message type's descriptor, normalised.
 * The fetch stage produces it from the wire shape, the lockfile stores it, the diff stage
 * compares it and the emitter turns it into TypeScript.
 */

/**
 * A normalised message-type descriptor: its known fields (`descriptor-fields.ts`, one row each).
 * Only `name`, `mNum` and `schemaHash` are always there; every other known field is present only
 * when the service sent it (deployments differ, and absent is not empty: an older deployment
 * sends no `actions` at all, which is not "no actions").
 */
export type Descriptor = KnownValues & {
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
};

/**
 * Builds a descriptor with its keys in one fixed order (known fields in {@link KNOWN_FIELDS}
 * order, absent ones left out, then `extra`), whether it comes from the service or from the
 * lockfile: its JSON is then a stable fingerprint of its content.
 */
export function makeDescriptor(known: KnownValues, extra: Record<string, unknown>): Descriptor {
  const d: Record<string, unknown> = {};
  for (const name of KNOWN_FIELDS) {
    const value = known[name];
    if (value !== undefined) d[name] = value;
  }
  d['extra'] = extra;
  return d as Descriptor;
}

/**
 * A descriptor as the model holds it: each known field in its stored form (the field table's),
 * `extra` an object; other keys (`fields`) pass. The fetch stage and the lockfile produce this
 * from what they validated; a library caller that hands descriptors to `emit` is checked by it.
 * Its messages complete "field X …" (`must be a string`).
 */
export const descriptorSchema = z.looseObject({
  ...Object.fromEntries(DESCRIPTOR_FIELDS.map((row) => [row.name, row.required ? row.stored : row.stored.optional()])),
  extra: z.custom<Record<string, unknown>>((value) => value !== null && typeof value === 'object' && !Array.isArray(value), { error: 'must be an object' }),
});

// Re-exported: the model's order of names, which most stages import from here.
export { compareStrings };

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

import { compareStrings, KNOWN_FIELDS, sortDescriptors, type Descriptor } from '../model/descriptor.js';
import { LOCKFILE_VERSION, type Lockfile } from '../model/lockfile.js';

/**
 * Serialises a lockfile deterministically: messages keyed by name in sorted order, known fields
 * in a fixed order, unknown fields with their keys sorted at every depth, two-space indent and
 * a final newline. The same descriptors in any order give the same bytes.
 */
export function serializeLockfile(lock: Lockfile): string {
  const messages = new Map<string, unknown>();
  for (const descriptor of sortDescriptors(lock.messages)) messages.set(descriptor.name, entryOf(descriptor));
  const root = new Map<string, unknown>([
    ['lockfileVersion', LOCKFILE_VERSION],
    ['source', lock.source],
    ['messages', messages],
  ]);
  return stableStringify(root) + '\n';
}

/**
 * The lockfile entry of one descriptor: known fields (except `name`, which is the key) then the
 * unknown ones, sorted. A `Map` rather than an object, so a field called `__proto__` stays data.
 */
function entryOf(descriptor: Descriptor): Map<string, unknown> {
  const entry = new Map<string, unknown>();
  for (const field of KNOWN_FIELDS) {
    if (field !== 'name') entry.set(field, descriptor[field]);
  }
  for (const key of Object.keys(descriptor.extra).sort(compareStrings)) entry.set(key, descriptor.extra[key]);
  return entry;
}

/**
 * JSON with two-space indentation: a `Map` keeps its insertion order, a plain object gets its
 * keys sorted at every depth, arrays of scalars stay on one line (easier to review in a diff).
 */
export function stableStringify(value: unknown, depth = 0): string {
  const pad = '  '.repeat(depth + 1);
  const close = '  '.repeat(depth);
  if (value instanceof Map) {
    const pairs = [...value.entries()].filter(([, v]) => v !== undefined);
    if (pairs.length === 0) return '{}';
    return `{\n${pairs.map(([k, v]) => `${pad}${JSON.stringify(String(k))}: ${stableStringify(v, depth + 1)}`).join(',\n')}\n${close}}`;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((item) => item === null || typeof item !== 'object')) {
      return `[${value.map((item) => JSON.stringify(item ?? null)).join(', ')}]`;
    }
    return `[\n${value.map((item) => pad + stableStringify(item, depth + 1)).join(',\n')}\n${close}]`;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const sorted = new Map<string, unknown>();
    for (const key of Object.keys(record).sort(compareStrings)) sorted.set(key, record[key]);
    return stableStringify(sorted, depth);
  }
  return JSON.stringify(value ?? null);
}

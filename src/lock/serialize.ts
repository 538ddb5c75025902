import { compareStrings, sortDescriptors, type Descriptor } from '../model/descriptor.js';
import { FIELDS_KEY } from '../model/field.js';
import { fieldEntry } from './fields.js';
import { STORED_FIELDS } from './stored-fields.js';
import { FILE_KEY, LOCKFILE_VERSION, type Lockfile } from '../model/lockfile.js';
import { jsonText, safeJson } from '../text/safe-text.js';
import { settingsRecord } from './settings-record.js';

/**
 * Serialises a lockfile deterministically: messages keyed by name in sorted order, known fields
 * in a fixed order, unknown fields with their keys sorted at every depth, two-space indent and
 * a final newline. The same descriptors in any order give the same bytes. Every entry passes
 * `safeJson`: invisible and line-breaking characters a server sent appear as `\uXXXX`.
 */
export function serializeLockfile(lock: Lockfile): string {
  return serializeLockfileEntries(lock).text;
}

/**
 * {@link serializeLockfile}, also giving each message's entry text (the object after its key) by
 * name, as the text holds it. `written` may give the entry text of a descriptor without a file
 * stem that this very serialiser wrote before (a pull that changed a few of many types writes
 * only theirs anew): the same bytes, taken rather than made again.
 */
export function serializeLockfileEntries(lock: Lockfile, written?: (descriptor: Descriptor) => string | undefined): { text: string; entries: Map<string, string> } {
  const header = new Map<string, unknown>([
    ['lockfileVersion', LOCKFILE_VERSION],
    ['source', lock.source],
    ['settings', settingsRecord(lock.settings)],
  ]);
  const head = stableStringify(header).slice(0, -2);
  const messages = sortDescriptors(lock.messages);
  const entries = new Map<string, string>();
  if (messages.length === 0) return { text: `${head},\n  "messages": {}\n}\n`, entries };
  // Entries are written directly, not through the generic printer: a pull serialises the whole
  // lockfile, and this is its hot path. Same bytes as stableStringify (property-tested).
  const parts = [head, ',\n  "messages": {\n'];
  for (let i = 0; i < messages.length; i++) {
    const d = messages[i]!;
    const name = d.name;
    const fileStem = lock.fileStems?.get(name);
    const entry = (fileStem === undefined ? written?.(d) : undefined) ?? safeJson(entryText(d, fileStem));
    parts.push(i === 0 ? '    ' : ',\n    ', jsonText(name), ': ', entry);
    entries.set(name, entry);
  }
  parts.push('\n  }\n}\n');
  return { text: parts.join(''), entries };
}

/** Between the fields of an entry. */
const FIELD = ',\n      ';

/**
 * One entry's JSON text (before `safeJson`): known fields (except `name`, the key) in the field
 * table's order, those sent only, then unknown ones sorted, then the field descriptors (if
 * recorded), then the file stem (if not the rule's).
 */
function entryText(d: Descriptor, fileStem: string | undefined): string {
  const parts: string[] = [];
  for (const { name, key, list } of KNOWN_KEYS) {
    const value = d[name];
    if (value === undefined) continue;
    // Written directly, as the generic printer writes them: this runs for every field of every entry.
    parts.push(FIELD, key, list ? scalarList(value as readonly string[]) : JSON.stringify(value));
  }
  const keys = Object.keys(d.extra);
  if (keys.length > 1) keys.sort(compareStrings);
  for (const key of keys) {
    const value = d.extra[key];
    if (value === undefined) continue;
    parts.push(FIELD, JSON.stringify(key), ': ', rawStringify(value, 3));
  }
  if (d.fields !== undefined) parts.push(FIELD, JSON.stringify(FIELDS_KEY), ': ', rawStringify(d.fields.map(fieldEntry), 3));
  if (fileStem !== undefined) parts.push(FIELD, JSON.stringify(FILE_KEY), ': ', JSON.stringify(fileStem));
  parts.push('\n    }');
  // An entry always has a field (`mNum` is required): the first one opens the object.
  parts[0] = '{\n      ';
  return parts.join('');
}

/** Each known field of an entry with its key as written (`"mNum": `), and whether it is a list of strings (else a scalar), as its row says. */
const KNOWN_KEYS = STORED_FIELDS.map((row) => ({ name: row.name, key: `${JSON.stringify(row.name)}: `, list: row.emit === 'strings' }));

function scalarList(items: readonly string[]): string {
  return items.length === 0 ? '[]' : `[${items.map((item) => JSON.stringify(item)).join(', ')}]`;
}

/**
 * JSON with two-space indentation: a `Map` keeps its insertion order, a plain object gets its
 * keys sorted at every depth, arrays of scalars stay on one line (easier to review in a diff);
 * unsafe characters as `\uXXXX` (`safeJson`).
 */
export function stableStringify(value: unknown, depth = 0): string {
  return safeJson(rawStringify(value, depth));
}

/** {@link stableStringify} before `safeJson`: the writer escapes whole entries at once. */
function rawStringify(value: unknown, depth = 0): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  const pad = '  '.repeat(depth + 1);
  const close = '  '.repeat(depth);
  if (value instanceof Map) {
    const pairs = [...value.entries()].filter(([, v]) => v !== undefined);
    if (pairs.length === 0) return '{}';
    return `{\n${pairs.map(([k, v]) => `${pad}${JSON.stringify(String(k))}: ${rawStringify(v, depth + 1)}`).join(',\n')}\n${close}}`;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((item) => item === null || typeof item !== 'object')) {
      return `[${value.map((item) => JSON.stringify(item ?? null)).join(', ')}]`;
    }
    return `[\n${value.map((item) => pad + rawStringify(item, depth + 1)).join(',\n')}\n${close}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).filter((key) => record[key] !== undefined);
  if (keys.length === 0) return '{}';
  keys.sort(compareStrings);
  return `{\n${keys.map((key) => `${pad}${JSON.stringify(key)}: ${rawStringify(record[key], depth + 1)}`).join(',\n')}\n${close}}`;
}

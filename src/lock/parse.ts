import { z } from 'zod';
import { KNOWN_FIELDS, makeDescriptor, setOwn, sortDescriptors, sortedEntries, type Descriptor } from '../model/descriptor.js';
import { STORED_FIELDS, type StoredRow } from './stored-fields.js';
import { LockError } from '../model/errors.js';
import { FIELDS_KEY, type FieldDescriptor } from '../model/field.js';
import { settingsRecordSchema } from './settings-record.js';
import { FILE_KEY, LOCKFILE_VERSION, type Lockfile } from '../model/lockfile.js';
import { readStoredFields } from './fields.js';
import { describeDeepPath, MAX_NESTING, tooDeep } from '../util/nesting.js';
import { quoteString } from '../text/safe-text.js';
import { joinMessages, msg, own, type Message } from '../model/message.js';
import { issueMessage } from '../model/issue-message.js';

/**
 * An entry: each known field in its stored form (`model/descriptor-fields.ts`), but `name`, the
 * entry's key. A known field absent from an entry was not sent by the service (absent is not empty).
 */
const entrySchema = z.looseObject(
  Object.fromEntries(STORED_FIELDS.map((row) => [row.name, row.required ? row.stored : row.stored.optional()])) as EntryShape,
);

/** The entry schema's shape: each stored row's schema, optional unless the row is required. */
type EntryShape = {
  [R in StoredRow as R['name']]: R['required'] extends true ? R['stored'] : z.ZodOptional<R['stored']>;
};

/** The keys of an entry that are not `extra`: the known fields, the field descriptors and the file stem. */
const NOT_EXTRA = new Set<string>([...KNOWN_FIELDS, FIELDS_KEY, FILE_KEY]);

/**
 * A recorded file stem (`$file`): the characters a stem is made of, no path separator or dot, and
 * no longer than a cut name and its suffix (`emit/naming.ts`, which also checks it is one of the
 * name's own stems).
 */
const STEM_PROBLEM = 'expected a file stem: up to 210 letters, digits, _ or $, not starting with a digit';
const fileStemSchema = z.string({ error: STEM_PROBLEM }).regex(/^[A-Za-z_$][A-Za-z0-9_$]{0,209}$/, { error: STEM_PROBLEM });

const headerSchema = z.object({
  lockfileVersion: z.number(),
  source: z.object({ baseUrl: z.string().optional(), query: z.record(z.string(), z.string()) }),
  settings: settingsRecordSchema,
});

const lockSchema = headerSchema.extend({
  // Not z.record: it copies by assignment, and a message type named `__proto__` would vanish.
  messages: z.custom<Record<string, unknown>>((value) => value !== null && typeof value === 'object' && !Array.isArray(value), {
    message: 'expected an object of messages keyed by name',
  }),
});

/** The descriptor of one lockfile entry: `raw` as parsed, `known` its known fields as validated, `fields` its field descriptors if recorded. */
function descriptorOfEntry(name: string, raw: Record<string, unknown>, known: z.output<typeof entrySchema>, fields: FieldDescriptor[] | undefined): Descriptor {
  const descriptor = makeDescriptor({ ...known, name }, sortedEntries(raw, NOT_EXTRA));
  return fields === undefined ? descriptor : { ...descriptor, fields };
}

/**
/**
 * Where JSON.parse stopped, as ` (line L, column C)`, or nothing: never the token or the snippet
 * of the text V8 quotes, since a lockfile path may name any file (a link to another one).
 */
function jsonErrorPlace(message: string, text: string): string {
  const position = /at position (\d+)/.exec(message);
  if (position === null) return /end of JSON input/.test(message) ? ' (it ends too soon)' : '';
  const before = text.slice(0, Number(position[1]));
  return ` (line ${before.split('\n').length}, column ${before.length - before.lastIndexOf('\n')})`;
}

/**
 * Parses lockfile text strictly. Anything that is not a schema-sync lockfile of this version is
 * a {@link LockError} naming the file and the field: never silently taken as empty.
 */
export function parseLockfile(text: string, file: string | Message): Lockfile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new LockError(msg`${file} is not valid JSON${own(jsonErrorPlace((error as Error).message, text))}.`, {
      hint: msg`Restore it from version control, or delete it and run \`schema-sync pull\` to write a new one.`,
    });
  }
  const top = lockSchema.safeParse(json);
  if (!top.success) {
    const where = joinMessages(top.error.issues.map((i) => msg`${own(i.path.join('.') || '(top level)')}: ${issueMessage(i)}`), '; ');
    throw new LockError(msg`${file} is not a schema-sync lockfile (${where}).`, {
      hint: msg`Point --lockfile at the file \`schema-sync pull\` wrote, or delete it and pull again.`,
    });
  }
  if (top.data.lockfileVersion !== LOCKFILE_VERSION) {
    throw new LockError(msg`${file} has lockfileVersion ${top.data.lockfileVersion}; this schema-sync reads version ${LOCKFILE_VERSION}.`, {
      hint: msg`Use the schema-sync version that wrote it, or run \`schema-sync pull\` to rewrite it.`,
    });
  }
  const { messages, fileStems } = readEntries(Object.entries(top.data.messages), file);
  return { lockfileVersion: LOCKFILE_VERSION, source: { ...top.data.source }, settings: top.data.settings, messages, ...(fileStems.size > 0 && { fileStems }) };
}

/**
 * The descriptor of an entry text that schema-sync itself serialised from a valid descriptor
 * with no field descriptors (in a lockfile whose hash a run recorded as its own): parsed, not
 * validated again. Its file stem (`$file`) is not part of it. Undefined for an entry with field
 * descriptors, or text that is not JSON.
 */
export function descriptorOfOwnEntry(name: string, text: string): Descriptor | undefined {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (raw === null || typeof raw !== 'object' || Object.hasOwn(raw, FIELDS_KEY)) return undefined;
  // The serialiser wrote the known fields in the field table's order and the others after them,
  // sorted: one pass in the text's order gives the keys the order `makeDescriptor` gives them.
  // The entry's key is its name (the serialiser never writes one inside).
  const descriptor: Record<string, unknown> = { name };
  const extra: Record<string, unknown> = {};
  for (const key of Object.keys(raw)) {
    if (key === 'name' || key === FILE_KEY) continue;
    if (KNOWN.has(key)) descriptor[key] = raw[key];
    else setOwn(extra, key, raw[key]);
  }
  descriptor['extra'] = extra;
  return descriptor as Descriptor;
}

const KNOWN: ReadonlySet<string> = new Set(KNOWN_FIELDS);

/**
 * Validates lockfile entries (name, parsed JSON value) into descriptors sorted by name; a
 * {@link LockError} lists every invalid field of every entry.
 */
export function parseEntries(entries: Iterable<readonly [name: string, raw: unknown]>, file: string | Message): Descriptor[] {
  return readEntries(entries, file).messages;
}

/** {@link parseEntries}, also giving the file stems the entries record (`$file`), by name. */
function readEntries(entries: Iterable<readonly [name: string, raw: unknown]>, file: string | Message): { messages: Descriptor[]; fileStems: Map<string, string> } {
  const problems: Message[] = [];
  const messages: Descriptor[] = [];
  const fileStems = new Map<string, string>();
  for (const [name, raw] of entries) {
    // Refused before anything recursive (the printer, canonical JSON, hashing) walks it.
    const deep = tooDeep(raw);
    if (deep !== undefined) {
      problems.push(msg`messages[${quoteString(name)}].${describeDeepPath(deep)}: nested more than ${MAX_NESTING} levels deep`);
      continue;
    }
    const entry = entrySchema.safeParse(raw);
    if (!entry.success) {
      for (const issue of entry.error.issues) {
        problems.push(msg`messages[${quoteString(name)}].${own(issue.path.join('.'))}: ${issueMessage(issue)}`);
      }
      continue;
    }
    const stored = Object.hasOwn(entry.data, FIELDS_KEY) ? readStoredFields(entry.data[FIELDS_KEY]) : undefined;
    if (stored !== undefined && 'problems' in stored) {
      for (const problem of stored.problems) problems.push(msg`messages[${quoteString(name)}].${own(FIELDS_KEY)}${problem}`);
      continue;
    }
    if (Object.hasOwn(entry.data, FILE_KEY)) {
      const stem = fileStemSchema.safeParse(entry.data[FILE_KEY]);
      if (!stem.success) {
        problems.push(msg`messages[${quoteString(name)}].${own(FILE_KEY)}: ${issueMessage(stem.error.issues[0]!)}`);
        continue;
      }
      fileStems.set(name, stem.data);
    }
    messages.push(descriptorOfEntry(name, raw as Record<string, unknown>, entry.data, stored?.fields));
  }
  if (problems.length > 0) {
    throw new LockError(msg`${file} has invalid entries:\n  ${joinMessages(problems, '\n  ')}`, {
      hint: msg`Restore it from version control, or run \`schema-sync pull\` to rewrite it.`,
    });
  }
  return { messages: sortDescriptors(messages), fileStems };
}

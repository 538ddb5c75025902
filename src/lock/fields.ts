import { z } from 'zod';
import { compareStrings, sortedEntries } from '../model/descriptor.js';
import { keyPath } from '../model/errors.js';
import { FIELD_COLUMNS, type FieldColumnRow } from '../model/field-columns.js';
import { fieldPath, KNOWN_FIELD_KEYS, makeField, sortFields, type FieldDescriptor } from '../model/field.js';
import { quoteString } from '../text/safe-text.js';
import { msg, own, type Message } from '../model/message.js';
import { issueMessage } from '../model/issue-message.js';

/**
 * The field descriptors of a lockfile entry, under its `$fields` key (`FIELDS_KEY`): an array in
 * record order, each field's known keys in a fixed order, then its unknown keys sorted. Written
 * only with fields on (`--fields`).
 */

/** One field as its lockfile entry gives it, in the order {@link KNOWN_FIELD_KEYS} lists them, then the unknown keys sorted. */
export function fieldEntry(field: FieldDescriptor): Map<string, unknown> {
  const entry = new Map<string, unknown>();
  for (const key of KNOWN_FIELD_KEYS) if (field[key] !== undefined) entry.set(key, field[key]);
  for (const key of Object.keys(field.extra).sort(compareStrings)) entry.set(key, field.extra[key]);
  return entry;
}

/** One field as the lockfile stores it: each known key in its column's stored form. */
const storedField = z.looseObject(
  Object.fromEntries(FIELD_COLUMNS.map((row) => [row.name, row.required ? row.stored : row.stored.optional()])) as StoredFieldShape,
);

/** The stored schema's shape: each column's stored schema, optional unless required. */
type StoredFieldShape = {
  [R in FieldColumnRow as R['name']]: R['required'] extends true ? R['stored'] : z.ZodOptional<R['stored']>;
};

const storedFields = z.array(storedField, { error: 'expected an array of field descriptors' });

const KNOWN: ReadonlySet<string> = new Set(KNOWN_FIELD_KEYS);

/**
 * The fields of a lockfile entry's `$fields` value, in record order, or the problems found in it
 * (each a path below `$fields` and what is wrong, e.g. `[2].fType: expected string`).
 */
export function readStoredFields(raw: unknown): { fields: FieldDescriptor[] } | { problems: Message[] } {
  const parsed = storedFields.safeParse(raw);
  if (!parsed.success) return { problems: parsed.error.issues.map((issue) => msg`${own(keyPath(issue.path))}: ${issueMessage(issue)}`) };
  // makeField takes the known keys only; the others come from the entry as written.
  const fields = parsed.data.map((known, index) => makeField(known, sortedEntries((raw as Array<Record<string, unknown>>)[index]!, KNOWN)));
  const seen = new Map<string, number>();
  const problems: Message[] = [];
  fields.forEach((field, index) => {
    const first = seen.get(fieldPath(field));
    if (first === undefined) seen.set(fieldPath(field), index);
    else problems.push(msg`[${index}]: field ${quoteString(fieldPath(field))} is also at [${first}]`);
  });
  return problems.length > 0 ? { problems } : { fields: sortFields(fields) };
}

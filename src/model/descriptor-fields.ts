import { z } from 'zod';
import type { Severity } from '../diff/types.js';
import { actionsValue, flagValue, listValue, readActions, readFlag, readList } from './wire-encodings.js';
import { quoteString } from '../text/safe-text.js';
import { msg, type Message } from './message.js';
import { namedOnce } from './named-once.js';

/**
 * The descriptor fields the service defines, one row each: the one place a known field is
 * written down. Everything else is derived from this table: the `Descriptor` type and its key
 * order (`makeDescriptor`), the wire schema and its decoding (`fetch/wire-message.ts`), the
 * lockfile's schema and field order (`lock/`), the generated constant's properties and the
 * generated `MessageDescriptor` interface (`emit/`), and the rules of a field's changes
 * (`diff/rules.ts`). A field the service sends that no row names is kept in `extra`.
 *
 * Each row's name is its name everywhere: on the wire, in the model, in the lockfile and in the
 * generated constant. Nothing is derived in this module, only where it is used: a test that adds
 * a row (test/model/descriptor-fields.test.ts) replaces this module's table alone.
 */

/** How a field's value is written in the generated constant. */
export type EmittedForm = 'string' | 'number' | 'boolean' | 'strings';

/** The TypeScript type of each {@link EmittedForm} in the generated `MessageDescriptor`. */
export const EMITTED_TYPES: Readonly<Record<EmittedForm, string>> = {
  string: 'string',
  number: 'number',
  boolean: 'boolean',
  strings: 'readonly string[]',
};

/** A value as the generated constant holds it: a string literal, a number, `true`/`false` or a readonly tuple of string literals. */
export type EmittedValue = string | number | boolean | readonly string[];

/** A drift rule: its stable id, its default severity and what it detects. */
export interface RuleDefinition<Id extends string = string> {
  readonly id: Id;
  readonly severity: Severity;
  readonly description: string;
}

/**
 * The rules of a field's value changes (its appearing or disappearing is `FIELD_APPEARED` /
 * `FIELD_DISAPPEARED` for every row): one rule for any change, a yes/no flag's two directions,
 * or a set's removal (the worse, also when others were added), addition and reordering.
 */
export type ChangeRules =
  | { readonly changed: RuleDefinition }
  | { readonly becameTrue: RuleDefinition; readonly becameFalse: RuleDefinition }
  | { readonly removed: RuleDefinition; readonly added: RuleDefinition; readonly reordered: RuleDefinition };

/** What a decoder is told about the element it reads. */
export interface DecodeContext {
  /** The message's name (its own field is read first). */
  readonly name: string;
  /** Tells something kept but worth telling. */
  warn(text: Message): void;
}

/** A wire value that validated but cannot be read: what was expected. */
export class Unreadable {
  constructor(readonly problem: Message) {}
}

/** One known descriptor field. */
export interface DescriptorField<N extends string = string, W = unknown, V = unknown, Required extends boolean = boolean, Rules extends ChangeRules = ChangeRules> {
  /** Its name on the wire, in the model, in the lockfile and in the generated constant. */
  readonly name: N;
  /** Whether every listing element must have it; any other field may be absent (deployments differ, and absent is not empty). */
  readonly required: Required;
  /** What the wire schema lets through: checks only (zod's transforms cost several times more per element, and a listing has up to 10,000). */
  readonly wire: z.ZodType<W>;
  /** Reads a wire value into the model's; without it the wire value is the model's. */
  decode?(value: W, context: DecodeContext): V | Unreadable;
  /**
   * The model's form, as the lockfile stores it: the lockfile's schema, and what a descriptor a
   * library caller hands to `emit` must hold. Its messages complete "field X …".
   */
  readonly stored: z.ZodType<V>;
  /** How its value is written in the generated constant; its type in `MessageDescriptor` follows ({@link EMITTED_TYPES}). */
  readonly emit: EmittedForm;
  /** Its TSDoc in the generated `MessageDescriptor`. */
  readonly doc: string;
  /** The rules of its changes. */
  readonly rules: Rules;
}

/** A row, its types inferred and kept literal. */
function field<const N extends string, W, V, const Required extends boolean, const Rules extends ChangeRules>(
  row: DescriptorField<N, W, V, Required, Rules>,
): DescriptorField<N, W, V, Required, Rules> {
  return row;
}

const NON_NEGATIVE = 'expected a non-negative integer';
const MUST_BE_INTEGER = 'must be a non-negative integer';
const MUST_BE_STRING = 'must be a string';
const MUST_BE_BOOLEAN = 'must be true or false';
const MUST_BE_STRINGS = 'must be an array of strings';

const storedString = z.string({ error: MUST_BE_STRING });
const storedStrings = z.array(z.string({ error: MUST_BE_STRINGS }), { error: MUST_BE_STRINGS });
const storedBoolean = z.boolean({ error: MUST_BE_BOOLEAN });

/** Losing a key flag breaks lookups by that key. */
const KEY_FLAG_RULES = {
  becameTrue: { id: 'KEY_FLAG_ADDED', severity: 'safe', description: 'A key flag (hasTKey, hasEKey, hasOKey) went No → Yes.' },
  becameFalse: { id: 'KEY_FLAG_REMOVED', severity: 'breaking', description: 'A key flag (hasTKey, hasEKey, hasOKey) went Yes → No.' },
} as const;

/** A key flag (`hasTKey`, `hasEKey`, `hasOKey`): a yes/no flag whose loss is breaking. */
function keyFlag<const N extends string>(name: N, doc: string) {
  return field({ name, required: false, wire: flagValue, decode: readFlag, stored: storedBoolean, emit: 'boolean', doc, rules: KEY_FLAG_RULES });
}

/** The known descriptor fields, in the order the lockfile, the generated constant and the diff use; each named once. */
export const DESCRIPTOR_FIELDS = namedOnce('descriptor field', [
  field({
    name: 'name',
    required: true,
    wire: z.string({ error: 'expected a string' }).min(1, { error: 'expected a non-empty string' }),
    stored: storedString.min(1, { error: 'must be a non-empty string' }),
    emit: 'string',
    doc: 'The name, exactly as the service sends it.',
    rules: { changed: { id: 'MESSAGE_RENAMED', severity: 'breaking', description: 'A message type has a new name (same mNum).' } },
  }),
  field({
    name: 'mNum',
    required: true,
    wire: z.number({ error: NON_NEGATIVE }).int({ error: NON_NEGATIVE }).nonnegative({ error: NON_NEGATIVE }).max(Number.MAX_SAFE_INTEGER),
    stored: z.number({ error: MUST_BE_INTEGER }).int({ error: MUST_BE_INTEGER }).nonnegative({ error: MUST_BE_INTEGER }),
    emit: 'number',
    doc: 'The message number.',
    rules: { changed: { id: 'MNUM_CHANGED', severity: 'breaking', description: 'A message type has a new mNum.' } },
  }),
  field({
    name: 'schemaHash',
    required: true,
    wire: z.string({ error: 'expected a string (schema-sync needs the schema hash to detect drift)' }),
    stored: storedString,
    emit: 'string',
    doc: "Hash of the message's schema; changes whenever the schema changes.",
    rules: { changed: { id: 'SCHEMA_HASH_CHANGED', severity: 'dangerous', description: "schemaHash changed: the message's own schema changed." } },
  }),
  field({
    name: 'actions',
    required: false,
    wire: actionsValue,
    // Known actions in the enum's bit order, each once, then unknown letters kept as themselves.
    decode(value, context) {
      const read = readActions(value);
      if ('problem' in read) return new Unreadable(read.problem);
      for (const letter of read.unknownLetters) {
        context.warn(msg`message ${quoteString(context.name)}: unknown action letter ${quoteString(letter)} kept as is (known: SIURD).`);
      }
      return read.actions;
    },
    stored: storedStrings,
    emit: 'strings',
    doc: 'Supported actions: each {@link KnownMessageAction} once, in the order select, insert,\nupdate, replace, delete, then unknown action letters kept as themselves.',
    rules: {
      removed: { id: 'ACTION_REMOVED', severity: 'breaking', description: 'An action is gone (even if others were added).' },
      added: { id: 'ACTION_ADDED', severity: 'safe', description: 'Actions were added, none removed.' },
      reordered: { id: 'ACTIONS_REORDERED', severity: 'safe', description: 'The same actions in another order.' },
    },
  }),
  keyFlag('hasTKey', 'Whether the message has a T key.'),
  keyFlag('hasEKey', 'Whether the message has an E key.'),
  keyFlag('hasOKey', 'Whether the message has an O key.'),
  field({
    name: 'hasCF',
    required: false,
    wire: flagValue,
    decode: readFlag,
    stored: storedBoolean,
    emit: 'boolean',
    doc: 'Whether the message has CF.',
    rules: { changed: { id: 'CLIENT_FIRM_CHANGED', severity: 'dangerous', description: 'hasCF changed, either way.' } },
  }),
  field({
    name: 'mToken',
    required: false,
    wire: z.string({ error: 'expected a string' }),
    stored: storedString,
    emit: 'string',
    doc: 'The token group the message belongs to.',
    rules: { changed: { id: 'TOKEN_CHANGED', severity: 'breaking', description: 'mToken changed: the message is routed to another group.' } },
  }),
  field({
    name: 'staticFilterFields',
    required: false,
    // A comma-separated list (may be empty) or an array.
    wire: listValue,
    decode: readList,
    stored: storedStrings,
    emit: 'strings',
    doc: 'The static filter fields.',
    rules: { changed: { id: 'FILTER_FIELDS_CHANGED', severity: 'dangerous', description: 'staticFilterFields changed.' } },
  }),
] as const);

/** A row of {@link DESCRIPTOR_FIELDS}. */
type Row = (typeof DESCRIPTOR_FIELDS)[number];

/** The name of a known descriptor field. */
export type KnownField = Row['name'];

/** The known fields of a descriptor: a required row's value, and an optional row's when the service sent it. */
export type KnownValues = {
  [R in Row as R['required'] extends true ? R['name'] : never]: z.output<R['stored']>;
} & {
  [R in Row as R['required'] extends true ? never : R['name']]?: z.output<R['stored']>;
};

/** The id of a rule of a known field's changes. */
export type DescriptorRuleId = { [R in Row as R['name']]: R['rules'][keyof R['rules']] }[KnownField] extends infer D ? (D extends RuleDefinition<infer Id> ? Id : never) : never;

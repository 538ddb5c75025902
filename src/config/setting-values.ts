/**
 * The kinds of value the settings table's rows are made of (`settings-table.ts`): a whole number
 * in bounds said in the setting's own words, and the parts of `rules`, `accept`, `include` and
 * `exclude`.
 */
import { z } from 'zod';
import { RULE_IDS, unknownRuleProblem, type RuleId } from '../diff/rules.js';

/** What a whole-number setting takes, in words: "a whole number of milliseconds from 1", "a whole number from 1 to 10000". */
export interface WholeNumber {
  min: number;
  max?: number;
  /** What it counts, plural: `milliseconds`, `bytes`. */
  unit?: string;
}

/** "a whole number of milliseconds from 1": what {@link wholeNumber} says a setting takes. */
export function wholeNumberWords({ min, max, unit }: WholeNumber): string {
  return `a whole number${unit === undefined ? '' : ` of ${unit}`} from ${min}${max === undefined ? '' : ` to ${max}`}`;
}

/**
 * A value as a problem quotes it: a text quoted (as it was typed: `"2.5"`), anything else as
 * JSON, so the words never show how a library read it (`NaN`, `received number`).
 */
export function shownValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' && !Number.isFinite(value)) return 'a number out of range';
  return JSON.stringify(value) ?? String(value);
}

/**
 * The problems of a setting said in its own words begin with this: the CLI puts the setting's
 * name before them without a colon (`--timeout takes a whole number of milliseconds from 1 (got "abc")`).
 */
export const OWN_WORDS = 'takes ';

/**
 * A whole number within `bounds`, every problem said in the setting's own words:
 * `takes a whole number of milliseconds from 1 (got "abc")`.
 */
export function wholeNumber(bounds: WholeNumber) {
  const problem = (issue: { input?: unknown }) => `${OWN_WORDS}${wholeNumberWords(bounds)} (got ${shownValue(issue.input)})`;
  const number = z.number({ error: problem }).int({ error: problem }).min(bounds.min, { error: problem });
  // The bounds in words ride on the schema, for the docs' key table and the tests that read it.
  return Object.assign(bounds.max === undefined ? number : number.max(bounds.max, { error: problem }), { wholeNumber: bounds });
}

/** The bounds of a whole-number schema made by {@link wholeNumber}; undefined for any other schema. */
export function wholeNumberOf(schema: z.ZodType): WholeNumber | undefined {
  return (schema as { wholeNumber?: WholeNumber }).wholeNumber;
}

/**
 * A setting's value as a flag or an environment variable gives it (text), as its schema takes
 * it: a whole number's digits as the number, `true`/`false` as a boolean. Anything else stays
 * the text it was, so the setting's problem quotes it as typed (`--limit takes … (got "2.5")`).
 */
export function valueOfText(schema: z.ZodType, text: string): unknown {
  if (schema instanceof z.ZodNumber) return /^[+-]?\d{1,15}$/.test(text.trim()) ? Number(text.trim()) : text;
  if (schema instanceof z.ZodBoolean) return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

/**
 * A drift rule id (`schema-sync rules` lists them); a typo is refused with the closest id. Typed as
 * the ids the check admits, so that `rules` is keyed by them in the settings' type.
 */
export const ruleId = z
  .string()
  .superRefine((id, ctx) => {
    const problem = unknownRuleProblem(id);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({ enum: [...RULE_IDS] }) as unknown as z.ZodType<RuleId, string>;

/** The rule ids as zod's enum takes them. */
const RULE_IDS_TUPLE = RULE_IDS as readonly [RuleId, ...RuleId[]];

/** One entry of `accept`. */
export const acceptance = z.object({
  rule: z.enum(RULE_IDS_TUPLE, { error: (issue) => unknownRuleProblem(String(issue.input)) }).describe('The rule id of the change (see `schema-sync rules`).'),
  message: z.string({ error: 'a message-name glob is required' }).min(1, { error: 'a message-name glob is required' }).describe('Glob of the message name: * any characters, ? one.'),
  reason: z
    .string({ error: 'a reason is required: say why the change is fine' })
    .trim()
    .min(1, { error: 'a reason is required: say why the change is fine' })
    .describe('Why the change is fine (required; shown in every report).'),
  before: z.unknown().optional().describe('When given, the value before must be exactly this.'),
  after: z.unknown().optional().describe('When given, the value after must be exactly this.'),
});

/** An `include` / `exclude` entry: a message-name glob, or a token glob. */
export const scopeRule = z.union([
  z.string().min(1).describe('Message-name glob: * any characters, ? one.'),
  z.object({ mToken: z.string().min(1).describe('Token glob: * any characters, ? one.') }).strict(),
]);

import type { z } from 'zod';
import { sortDescriptors, type Descriptor } from '../model/descriptor.js';
import { RefusedError, ResponseError, ValidationError, type SaidIssue } from '../model/errors.js';
import { FIELDS_KEY } from '../model/field.js';
import { FILE_KEY } from '../model/lockfile.js';
import { normaliseMessage, trailerMessageSchema, wireElementSchema, wireMessageSchema, type FieldProblem } from './wire-message.js';
import { describeDeepPath, MAX_NESTING, tooDeep } from '../util/nesting.js';
import { inlineText, jsonText, quoteString } from '../text/safe-text.js';
import { joinMessages, messageText, msg, own, type Message } from '../model/message.js';
import { plural } from '../util/plural.js';

/**
 * The `QueryResult` status element that may close a listing: not a descriptor. Declared by
 * hand, not inferred from the zod schema, so the public type declarations do not pull in zod's.
 */
export interface TrailerMessage {
  /** How many messages the server says it sent. */
  numMessagesSent?: number;
  queryElapsed?: unknown;
  /** `Ok`, or what went wrong. */
  result: string;
  /** The server's explanation of a result other than `Ok`. */
  detail?: unknown;
  [field: string]: unknown;
}

/** What a listing response holds once validated. */
export interface ParsedListing {
  /** Descriptors sorted by name. */
  descriptors: Descriptor[];
  /** The `QueryResult` status element, when the server sent one. */
  trailer: TrailerMessage | undefined;
  /** Things kept but worth telling (unknown action letters …). */
  warnings: Message[];
}

/** How a listing is judged. */
export interface ParseOptions {
  /** The `limit` that was sent: a listing that fills it may be cut short. */
  limit?: number;
  /** Accept a listing that fills `limit` (it may be cut short). */
  allowTruncated?: boolean;
  /** Where the listing came from, for messages (a URL without secrets, or a file name). */
  origin: string;
}

/** The header type of the status element that may close an answer. */
const TRAILER_TYPE = 'QueryResult';

/** How a listing's errors name it. */
const LISTING = {
  arrayOf: msg`descriptors`,
  invalidIn: msg`the listing`,
  duplicates: msg`the listing has duplicates`,
  hints: {
    notArray: msg`Check --base-url and the query: the service answers GET {base_url}/rest/proto with an array.`,
    invalid: msg`The service sent descriptors schema-sync cannot use; nothing was written. Fix the service data or narrow the query (--where, --msg-type).`,
    duplicates: msg`Each message type needs a unique name and mNum; nothing was written. Fix the service data.`,
  },
};

/**
 * Validates and normalises a parsed response body: every element is checked, and all issues
 * are reported at once with index, name and field. The `QueryResult` trailer is recognised by
 * its header type (`msgType` or `mTyp`) and never taken for a descriptor.
 */
export function parseListing(body: unknown, options: ParseOptions): ParsedListing {
  if (!Array.isArray(body)) throw listingNotArray(body, options);
  return readListing(body.map((value: unknown) => ({ value })), options).listing;
}

/** The refusal of a listing's body that is not an array. */
export function listingNotArray(body: unknown, options: ParseOptions): Error {
  return listingReader(options).notArray(body);
}

/** An element of a listing: its parsed value, or the descriptor an element of the very same text made before (valid, with no warning). */
export type ListingElement = { value: unknown } | { known: Descriptor };

/**
 * {@link parseListing} of an array's elements, some of them known: a known element's descriptor
 * is taken as it is, and checked only against the others (duplicates, the limit); each other
 * element is validated. Also gives the name of the type each element made, by index, for the
 * elements that made one with no warning (undefined for the others).
 */
export function readListing(elements: readonly ListingElement[], options: ParseOptions): { listing: ParsedListing; named: Array<string | undefined> } {
  const reader = listingReader(options);
  elements.forEach((element, index) => ('known' in element ? reader.take(element.known, index) : reader.element(element.value, index)));
  return { listing: reader.finish(), named: reader.named };
}

/** {@link parseListing}'s reader: each element validated and normalised in order, from index 0. */
function listingReader(options: ParseOptions): AnswerReader<ParsedListing> & { take(descriptor: Descriptor, index: number): void; named: Array<string | undefined> } {
  const warnings: Message[] = [];
  const descriptors: Descriptor[] = [];
  const named: Array<string | undefined> = [];
  const firstByName = new Map<string, number>();
  const firstByNumber = new Map<number, { index: number; name: string }>();
  const take = (descriptor: Descriptor, index: number, problems: { duplicates: Message[] }) => {
    const sameName = firstByName.get(descriptor.name);
    if (sameName !== undefined) {
      problems.duplicates.push(msg`name ${quoteString(descriptor.name)} appears at elements ${sameName} and ${index}`);
    } else {
      firstByName.set(descriptor.name, index);
    }
    const sameNumber = firstByNumber.get(descriptor.mNum);
    if (sameNumber !== undefined) {
      problems.duplicates.push(
        msg`mNum ${descriptor.mNum} is used by element ${sameNumber.index} (${quoteString(sameNumber.name)}) and element ${index} (${quoteString(descriptor.name)})`,
      );
    } else {
      firstByNumber.set(descriptor.mNum, { index, name: descriptor.name });
    }
    descriptors.push(descriptor);
  };
  const reader = answerReader({ ...LISTING, origin: options.origin }, wireMessageSchema, ({ data, message, index }, problems) => {
    const warned = warnings.length;
    const descriptor = normaliseMessage(data, message, (w) => warnings.push(msg`element ${index}: ${w}`));
    if ('problems' in descriptor) {
      const name = data.name;
      problems.issues.push(...descriptor.problems.map((p) => ({ index, name, field: own(`message.${p.field}`), message: msg`${p.message}${describeInput(p)}` })));
      return;
    }
    if (Object.hasOwn(descriptor.extra, FIELDS_KEY)) {
      problems.issues.push({ index, name: descriptor.name, field: own(`message.${FIELDS_KEY}`), message: msg`a key schema-sync reserves for the field descriptors it records (--fields); no protobuf name has a $` });
      return;
    }
    if (Object.hasOwn(descriptor.extra, FILE_KEY)) {
      problems.issues.push({ index, name: descriptor.name, field: own(`message.${FILE_KEY}`), message: msg`a key schema-sync reserves for the file name it records; no protobuf name has a $` });
      return;
    }
    if (warnings.length === warned) named[index] = descriptor.name;
    take(descriptor, index, problems);
  });
  return {
    element: reader.element,
    take: (descriptor, index) => {
      named[index] = descriptor.name;
      take(descriptor, index, reader.problems);
    },
    named,
    notArray: reader.notArray,
    finish: () => {
      const trailer = reader.finish();
      checkTruncation(descriptors.length, trailer, options);
      return { descriptors: sortDescriptors(descriptors), trailer, warnings };
    },
  };
}

/**
 * How an answer's errors name it (`expected a JSON array of ${arrayOf}`, `N invalid fields in
 * ${invalidIn}`, `${duplicates}:`), with what to do about each.
 */
export interface AnswerFrame {
  /** Where the answer came from: a URL without secrets, or a file name (outside text). */
  origin: string;
  arrayOf: Message;
  invalidIn: Message;
  duplicates: Message;
  hints: { notArray: Message; invalid: Message; duplicates: Message };
}

/**
 * An answer's elements read one at a time: `element` for each, in order from index 0, then
 * `finish` for what they make (it throws the answer's refusal).
 */
interface ElementReader<R> {
  element(element: unknown, index: number): void;
  finish(): R;
}

/** An {@link ElementReader} of an answer that must be an array: `notArray` is the refusal of a body that is not. */
interface AnswerReader<R> extends ElementReader<R> {
  notArray(body: unknown): Error;
}

/** Feeds a parsed body to `reader`: its elements, then its finish; a body that is no array is refused. */
function foldElements<R>(body: unknown, reader: AnswerReader<R>): R {
  if (!Array.isArray(body)) throw reader.notArray(body);
  body.forEach((element: unknown, index) => reader.element(element, index));
  return reader.finish();
}

/** What {@link answerReader}'s `read` is given: the element's validated message, and where its problems go. */
type ReadElement<T> = (element: { data: T; message: Record<string, unknown>; type: string | undefined; index: number }, problems: { issues: SaidIssue[]; duplicates: Message[] }) => void;

/**
 * Reads an answer (a listing or a `getschema` one): each element is validated (its header, its
 * message by `schema`) and handed to `read` with the message as received and its header type;
 * `read` pushes what else is wrong with it. Then the answer is refused with every issue at once,
 * else with its duplicates, else when its `QueryResult` trailer is not `Ok`.
 * @returns the trailer, when the server sent one
 */
export function readAnswer<T>(body: unknown, frame: AnswerFrame, schema: z.ZodType<T>, read: ReadElement<T>): TrailerMessage | undefined {
  return foldElements(body, answerReader(frame, schema, read));
}

/** {@link readAnswer} an element at a time. */
function answerReader<T>(frame: AnswerFrame, schema: z.ZodType<T>, read: ReadElement<T>): AnswerReader<TrailerMessage | undefined> & { problems: { issues: SaidIssue[]; duplicates: Message[] } } {
  const problems = { issues: [] as SaidIssue[], duplicates: [] as Message[] };
  let trailer: TrailerMessage | undefined;
  return {
    problems,
    element: (element, index) => {
      const found = readElement(element, index, problems.issues);
      if (found === undefined) return;
      if ('trailer' in found) {
        trailer = found.trailer;
        return;
      }
      const valid = validate(schema, found.message);
      if (valid.success) read({ data: valid.data, message: found.message, type: found.type, index }, problems);
      else problems.issues.push(...toIssues(valid.error, index, nameOf(element), 'message.'));
    },
    notArray: (body) => {
      const got = body === null ? 'null' : typeof body === 'object' ? 'a JSON object' : `a JSON ${typeof body}`;
      return new ResponseError(msg`${frame.origin}: expected a JSON array of ${frame.arrayOf}, got ${own(got)}.`, { hint: frame.hints.notArray });
    },
    finish: () => {
      const { issues, duplicates } = problems;
      if (issues.length > 0) {
        throw new ValidationError(msg`${frame.origin}: ${issues.length} invalid ${own(issues.length === 1 ? 'field' : 'fields')} in ${frame.invalidIn}:\n  ${joinMessages(issues.map(formatIssue), '\n  ')}`, issues, {
          hint: frame.hints.invalid,
        });
      }
      if (duplicates.length > 0) throw new RefusedError(msg`${frame.origin}: ${frame.duplicates}:\n  ${joinMessages(duplicates, '\n  ')}`, { hint: frame.hints.duplicates });
      checkTrailerResult(trailer, frame.origin);
      return trailer;
    },
  };
}

/**
 * One element of an answer: its header type and message, or the `QueryResult` trailer it is;
 * undefined when it is invalid, its issues pushed to `issues`.
 */
function readElement(
  element: unknown,
  index: number,
  issues: SaidIssue[],
): { type: string | undefined; message: Record<string, unknown> } | { trailer: TrailerMessage } | undefined {
  const parsed = validate(wireElementSchema, element);
  if (!parsed.success) {
    issues.push(...toIssues(parsed.error, index, nameOf(element), ''));
    return undefined;
  }
  const type = parsed.data.header?.msgType ?? parsed.data.header?.mTyp;
  if (type !== TRAILER_TYPE) return { type, message: parsed.data.message };
  const status = validate(trailerMessageSchema, parsed.data.message);
  if (status.success) return { trailer: status.data };
  issues.push(...toIssues(status.error, index, TRAILER_TYPE, 'message.'));
  return undefined;
}

/** A `QueryResult` whose `result` is not `Ok` fails the answer it closes, with its `detail`. */
function checkTrailerResult(trailer: TrailerMessage | undefined, origin: string): void {
  if (trailer === undefined || trailer.result === 'Ok') return;
  const detail = trailer.detail === undefined ? own('') : msg`: ${typeof trailer.detail === 'string' ? inlineText(trailer.detail) : jsonText(trailer.detail)}`;
  throw new ResponseError(msg`${origin}: the service reported QueryResult ${jsonText(trailer.result)}${detail}.`, {
    hint: msg`The answer is incomplete or failed on the server; nothing was written. Check the query parameters, or try again later.`,
  });
}

/**
 * Refuses a parsed answer (a listing's or a `getschema` one) with an element nested more than
 * {@link MAX_NESTING} levels deep, naming each such element and where it goes too deep: before
 * anything that recurses into the values (secret scrubbing, key sorting, the lockfile, hashing)
 * meets it. A body that is not an array is walked whole; its parser says what it is instead.
 */
export function refuseDeepNesting(body: unknown, origin: string): void {
  if (!Array.isArray(body)) {
    if (tooDeep(body) === undefined) return;
    throw new ResponseError(msg`${origin}: expected a JSON array, got a JSON value nested more than ${MAX_NESTING} levels deep.`, { hint: DEEP_HINT });
  }
  const issues = body.flatMap((element: unknown, index) => deepIssue(element, index) ?? []);
  if (issues.length > 0) throw deepNestingError(issues, origin);
}

/** {@link refuseDeepNesting} of an array's elements (a known one was seen valid before). */
export function refuseDeepElements(elements: readonly ListingElement[], origin: string): void {
  const issues = elements.flatMap((element, index) => ('value' in element ? (deepIssue(element.value, index) ?? []) : []));
  if (issues.length > 0) throw deepNestingError(issues, origin);
}

const DEEP_HINT = msg`The service sent values nested deeper than schema-sync keeps; nothing was written. Fix the service data.`;

/** The issue of an element at `index` nested too deep (see {@link refuseDeepNesting}); undefined when it is not. */
function deepIssue(element: unknown, index: number): SaidIssue | undefined {
  const path = tooDeep(element);
  if (path === undefined) return undefined;
  return { index, name: nameOf(element), field: msg`${describeDeepPath(path)}`, message: msg`nested more than ${MAX_NESTING} levels deep (the most schema-sync keeps)` };
}

/** The refusal of an answer whose elements nest too deep, naming each (`issues`, from {@link deepIssue}). */
function deepNestingError(issues: SaidIssue[], origin: string): ValidationError {
  const lines = issues.map(formatIssue);
  return new ValidationError(msg`${origin}: ${issues.length} ${own(issues.length === 1 ? 'element nests' : 'elements nest')} too deep:\n  ${joinMessages(lines, '\n  ')}`, issues, { hint: DEEP_HINT });
}

/** A listing that fills the limit may be cut short, and a cut listing looks like removals. */
function checkTruncation(count: number, trailer: TrailerMessage | undefined, options: ParseOptions): void {
  if (options.limit === undefined || options.allowTruncated) return;
  const sent = trailer?.numMessagesSent ?? count;
  if (sent >= options.limit || count >= options.limit) {
    throw new ResponseError(
      msg`${options.origin}: the listing has ${own(plural(count, 'descriptor'))}, as many as the limit ${options.limit}, so it may be cut short.`,
      { hint: msg`Raise --limit (at most 10000), narrow the query with --where, or pass --allow-truncated if the cut is intended.` },
    );
  }
}

/** zod's safeParse, its issues carrying the offending values (for the messages). */
function validate<T>(schema: z.ZodType<T>, value: unknown): z.ZodSafeParseResult<T> {
  return schema.safeParse(value, { reportInput: true });
}

function nameOf(element: unknown): string | undefined {
  const name = (element as { message?: { name?: unknown } } | null | undefined)?.message?.name;
  return typeof name === 'string' && name.length > 0 ? name : undefined;
}

function toIssues(error: z.ZodError, index: number, name: string | undefined, prefix: string): SaidIssue[] {
  const issues = error.issues.map((issue) => ({
    index,
    name,
    field: own(`${prefix}${issue.path.map(String).join('.')}`.replace(/\.$/, '') || '(element)'),
    // zod's wording is the program's own: the wire schemas keep unknown keys (none is named in a
    // message), and the offending value is quoted apart, from `input`.
    message: msg`${own(issue.code === 'invalid_type' && issue.path.length === 0 && prefix === '' ? 'expected an object { header, message }' : issue.message)}${describeInput(issue)}`,
  }));
  // One failure can break several checks with the same wording (2^60 is neither a safe
  // integer nor within the maximum): say it once.
  return issues.filter((issue, i) => issues.findIndex((other) => messageText(other.field) === messageText(issue.field) && messageText(other.message) === messageText(issue.message)) === i);
}

/** `, got "abc"` for issues that carry the offending value; long values are cut. */
function describeInput(issue: z.core.$ZodIssue | FieldProblem): Message {
  if (!('input' in issue)) return own('');
  const input = issue.input;
  if (input === undefined) return own(', but it is missing');
  const text = jsonText(input);
  return msg`, got ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`;
}

function formatIssue(issue: SaidIssue): Message {
  const who = issue.name === undefined ? msg`element ${issue.index}` : msg`element ${issue.index} (${quoteString(issue.name)})`;
  return msg`${who}, field ${issue.field}: ${issue.message}`;
}

import { isUtf8 } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';
import { ResponseError, type SaidIssue } from '../model/errors.js';
import { redactDeep, type Redactor } from '../model/redact.js';
import { KNOWN_FIELDS } from '../model/descriptor.js';
import { KNOWN_FIELD_KEYS } from '../model/field.js';
import { parseArrayElements } from './array-elements.js';
import { releaseBlock } from './read-limited.js';
import { deepIssue, deepNestingError, refuseDeepNesting, type ElementReader } from './parse-listing.js';
import { blocksAreUtf8, notUtf8Error } from './utf8.js';
import { garbageCollector, LARGE_READ_BYTES } from '../util/collect-garbage.js';
import { tooDeep } from '../util/nesting.js';
import { msg, own } from '../model/message.js';

/**
 * An answer's body (a listing's or a `getschema` one) read into its elements: its bytes parsed a
 * batch at a time and let go as they are, each element checked for depth and scrubbed of the
 * run's secrets; a body that is no plain JSON array refused for what it is instead.
 */

/**
 * The JSON of an answer's body with the run's secrets scrubbed from it (see `scrubSecrets`), and
 * the indexes of the elements that held one. Errors say what the body is instead (not UTF-8,
 * not JSON, nested too deep for the recursive code after it); the caller redacts them.
 */
export function answerJson(answer: Answer, origin: string, redact: Redactor): { body: unknown; elements: number[] } {
  let collected: unknown[] = [];
  const read = readAnswerBody(answer, origin, redact, () => {
    collected = [];
    return { element: (element) => collected.push(element), finish: () => collected };
  });
  return 'body' in read ? read : { body: collected, elements: read.elements };
}

/**
 * Whether an element of an answer's body holds one of the run's secrets (`scrub`, the redactor's
 * `data` part, would change it), read a batch at a time and nothing kept: cheaper than reading
 * the answer, for a run that may not need to. A batch whose text holds no escape and no secret
 * is not even parsed: each of its strings is a piece of that text, as it stands. Undefined when
 * the body is not plainly an array within the nesting limit, as far as it was parsed: only
 * reading it says what it is then (a body that is no valid listing may also be judged to hold no
 * secret; reading it refuses it).
 */
export function answerEchoes(answer: Answer, scrub: (text: string) => string): boolean | undefined {
  if (answer.contentType.includes('html') || !blocksAreUtf8(answer.blocks)) return undefined;
  let echoes = false;
  let sound = true;
  const plain = (text: string) => !text.includes('\\') && scrub(text) === text;
  // Over a copy of the list: the blocks stay, for the answer's reading.
  const read = parseArrayElements(
    [...answer.blocks],
    (batch) => {
      for (const element of batch) {
        if (!sound) return;
        if (tooDeep(element) !== undefined) sound = false;
        // Scrubbed as reading would (a copy, let go at once): only a batch that may hold one gets here.
        else echoes ||= scrubSecrets(element, scrub).found;
      }
    },
    { skip: plain },
  );
  return read.complete && sound ? echoes : undefined;
}

/** Whether an answer's body is large enough that its reading collects its garbage as it goes (`LARGE_READ_BYTES`). */
export function isLargeAnswer(blocks: readonly Buffer[]): boolean {
  return blocks.reduce((size, block) => size + block.length, 0) >= LARGE_READ_BYTES;
}

/** What the elements of an answer made, or the error the reader refused them with. */
export type Outcome<R> = { result: R } | { error: unknown };

/** What `make` gives, or the error it throws. */
export function settled<R>(make: () => R): Outcome<R> {
  try {
    return { result: make() };
  } catch (error) {
    return { error };
  }
}

/** An answer's body as received: its bytes, as the blocks they were read in (taken from the array as they are parsed), and its content type. */
export interface Answer {
  blocks: Buffer[];
  contentType: string;
}

/**
 * Reads an answer's body into `startReader()`'s reader, each element checked for depth and
 * scrubbed of the run's secrets (`scrub`, the redactor's `data` part, unless the answer is known
 * to hold none) before the reader gets it. An array is parsed a batch of elements
 * at a time from the bytes (array-elements.ts), each batch read as it is parsed, so its raw
 * elements are garbage before the next is parsed, and the bytes before it are let go; anything
 * else, and any answer that fails, through its whole text, whose checks say what it is instead (a
 * new reader then starts over). A body that is no array is given back whole (`body`, scrubbed)
 * for its parser to refuse.
 * @returns what the reader made of the elements (or its refusal), and the indexes of the elements that held a secret
 * @throws what the body is instead of elements (not UTF-8, not JSON, nested too deep for the recursive code after it); the caller redacts it
 */
export function readAnswerBody<R>(
  answer: Answer,
  origin: string,
  redact: Redactor,
  startReader: () => ElementReader<R>,
  scrub: ((text: string) => string) | undefined = redact.data,
): { outcome: Outcome<R>; elements: number[] } | { body: unknown; elements: number[] } {
  const { blocks, contentType } = answer;
  let bytes: Buffer;
  if (!contentType.includes('html') && blocksAreUtf8(blocks)) {
    // The start of the text, for the excerpt of an error found once its bytes are gone.
    const head = textHead(blocks);
    const screen = screenElements(startReader(), scrub);
    // A large answer's batch texts are collected as it goes: they would pile up beside the bytes.
    const afterBatch = isLargeAnswer(blocks) ? garbageCollector().young : undefined;
    const read = parseArrayElements(blocks, (batch, first) => batch.forEach((element, i) => screen.element(element, first + i)), { afterBatch, release: releaseBlock });
    if (read.complete) return screen.finish(origin);
    if (read.skipped > 0) throw restError(read, head, contentType, origin, redact);
    bytes = read.rest;
  } else {
    bytes = Buffer.concat(blocks.splice(0));
  }
  const raw = parseJson(answerText({ body: bytes, contentType }, origin, redact), contentType, origin, redact);
  if (Array.isArray(raw)) {
    const screen = screenElements(startReader(), scrub);
    raw.forEach((element: unknown, index) => screen.element(element, index));
    return screen.finish(origin);
  }
  refuseDeepNesting(raw, origin);
  if (!scrub) return { body: raw, elements: [] };
  const scrubbed = scrubSecrets(raw, scrub);
  return { body: scrubbed.body, elements: scrubbed.found ? [-1] : [] };
}

/**
 * The error of an answer found not to be JSON after some of its elements were read and their
 * bytes let go: the one JSON.parse gives for the whole text. Its failure is in `rest`, and the
 * text before it is valid elements up to a comma, as `[0,` padded to the same length leaves the
 * parser: the failure is then at the same place, and said the same way.
 */
function restError(read: { skipped: number; rest: Buffer }, head: string, contentType: string, origin: string, redact: Redactor): ResponseError {
  // Only the `[` before it (the one batch was the whole array, with something after its end),
  // else at least a batch and its comma, which `0,` and spaces stand for.
  const rest = read.rest.toString('utf8');
  const text = read.skipped === 1 ? `[${rest}` : `[${' '.repeat(read.skipped - 3)}0,${rest}`;
  try {
    JSON.parse(text);
  } catch (error) {
    return notJsonError(error, head, contentType, origin, redact);
  }
  throw new Error('array-elements: an array found incomplete is valid JSON');
}

/**
 * The start of the text of `blocks` as {@link answerText} reads it (its byte order mark and
 * leading white space left out), as far as an excerpt reads it and a character more when there
 * is more: {@link excerpt} gives the same for it as for the whole text.
 */
function textHead(blocks: readonly Buffer[]): string {
  const decoder = new StringDecoder('utf8');
  let text = '';
  for (const block of blocks) {
    for (let at = 0; at < block.length; at += EXCERPT_SOURCE) {
      text = (text + decoder.write(block.subarray(at, at + EXCERPT_SOURCE))).trimStart();
      if (text.length > EXCERPT_SOURCE) return text.slice(0, EXCERPT_SOURCE + 1);
    }
  }
  return text;
}

/**
 * Hands each element to `reader`, unless an element so far nests too deep (then only the depth of
 * the rest is checked, for the refusal that names them all), scrubbed of the run's secrets.
 */
function screenElements<R>(reader: ElementReader<R>, scrub: ((text: string) => string) | undefined) {
  const deep: SaidIssue[] = [];
  const elements: number[] = [];
  let refused: { error: unknown } | undefined;
  return {
    element(element: unknown, index: number): void {
      const issue = deepIssue(element, index);
      if (issue !== undefined) deep.push(issue);
      if (deep.length > 0) return;
      let clean = element;
      if (scrub) {
        const scrubbed = scrubSecrets(element, scrub);
        if (scrubbed.found) elements.push(index);
        clean = scrubbed.body;
      }
      if (refused !== undefined) return;
      try {
        reader.element(clean, index);
      } catch (error) {
        // A reader may refuse the answer at one element (a getschema answer of another type):
        // the rest are still scrubbed, to say which held a secret.
        refused = { error };
      }
    },
    finish(origin: string): { outcome: Outcome<R>; elements: number[] } {
      if (deep.length > 0) throw deepNestingError(deep, origin);
      return { outcome: refused ?? settled(reader.finish), elements };
    },
  };
}

/**
 * How much of a body an excerpt reads (far more than it shows, so folding white space leaves
 * enough), and what it drops from the end of that when the body is longer: more than any secret
 * is long, which the cut may have split where the redactor cannot see it.
 */
const EXCERPT_SOURCE = 64 * 1024;
const CUT_MARGIN = 1024;

/** A short, single-line, redacted excerpt of the start of a body for error messages. */
export function excerpt(body: string | Buffer, redact: Redactor, max = 160): string {
  const start = redact(typeof body === 'string' ? body.slice(0, EXCERPT_SOURCE) : body.toString('utf8', 0, EXCERPT_SOURCE));
  const flat = (body.length > EXCERPT_SOURCE ? start.slice(0, -CUT_MARGIN) : start).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * The text of a body that should be a JSON array (its byte order mark and leading white space
 * left out). Servers answer errors with HTML pages, sometimes with status 200 (login pages,
 * proxies), so an HTML or empty body is named for what it is; a body that is not valid UTF-8 is
 * refused with the offset of the first bad byte.
 */
function answerText(answer: { body: Buffer; contentType: string }, origin: string, redact: Redactor): string {
  const { body: bytes, contentType } = answer;
  // Decoded leniently to say what the body looks like; parsed only when it is valid UTF-8.
  const trimmed = bytes.toString('utf8').replace(/^\uFEFF/, '').trimStart();
  const looksHtml = contentType.includes('html') || /^<(!doctype|html|head|body|\?xml)/i.test(trimmed);
  if (looksHtml || trimmed.startsWith('<')) {
    throw new ResponseError(msg`${origin}: expected a JSON array, got ${contentType || own('text/html')}: ${excerpt(trimmed, redact)}`, {
      hint: msg`The URL answered with a web page, not the service: check --base-url, and whether a proxy or login page is in the way.`,
    });
  }
  if (trimmed === '') {
    throw new ResponseError(msg`${origin}: expected a JSON array, got an empty body.`, {
      hint: msg`Check --base-url and try again; the service sent nothing.`,
    });
  }
  if (!isUtf8(bytes)) throw notUtf8Error(bytes, origin, redact);
  return trimmed;
}

/** Parses the text of a body (see {@link answerText}); a body that is not JSON says so, with an excerpt. */
function parseJson(text: string, contentType: string, origin: string, redact: Redactor): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw notJsonError(error, text, contentType, origin, redact);
  }
}

/** The error of a body that is not JSON: where JSON.parse gave up (its `error`), and an excerpt of the start of its `text`. */
function notJsonError(error: unknown, text: string, contentType: string, origin: string, redact: Redactor): ResponseError {
  return new ResponseError(
    msg`${origin}: expected a JSON array, got ${contentType || own('a body')} that is not JSON (${own(jsonFailure(error))}): ${excerpt(text, redact)}`,
    { hint: msg`Check --base-url; the answer did not come from the schema listing service, or was cut off.` },
  );
}

/**
 * Where JSON.parse gave up, without its message: V8 quotes the first characters of the offending
 * token there, which may be the start of an echoed secret the redactor cannot recognise cut.
 */
function jsonFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  const position = /at position (\d+)/.exec(message)?.[1];
  if (position !== undefined) return `invalid at position ${position}`;
  return /end of (JSON|data)/i.test(message) ? 'it ends too early' : 'invalid';
}

/**
 * The keys of the wire format (an element, its header, a descriptor, a `FieldDesc`, the
 * `QueryResult` trailer): the program's vocabulary, never an echo, so kept as they are.
 */
const WIRE_KEYS: ReadonlySet<string> = new Set(['header', 'message', 'msgType', 'mTyp', 'numMessagesSent', 'queryElapsed', 'result', 'detail', ...KNOWN_FIELDS, ...KNOWN_FIELD_KEYS]);

/**
 * Servers echo the API key back, also inside a successful listing (a `desc` that quotes the
 * request, a `pkey` that holds it). Whatever is kept from a listing ends up in the lockfile and
 * the generated code, so the run's secrets are replaced (by `***`) in every string and key of
 * each element (or of a body that is no array) before it is validated; `found`: whether one was.
 */
function scrubSecrets(body: unknown, redact: (text: string) => string): { body: unknown; found: boolean } {
  let found = false;
  const clean = (text: string): string => {
    const result = redact(text);
    found ||= result !== text;
    return result;
  };
  const scrubbed = redactDeep(body, clean, WIRE_KEYS);
  return { body: scrubbed, found };
}

import { isUtf8 } from 'node:buffer';
import { ResponseError } from '../model/errors.js';
import { redactDeep, type Redactor } from '../model/redact.js';
import { KNOWN_FIELDS } from '../model/descriptor.js';
import { KNOWN_FIELD_KEYS } from '../model/field.js';
import { refuseDeepNesting } from './parse-listing.js';
import { notUtf8Error } from './utf8.js';
import { msg, own } from '../model/message.js';

/** An answer's body as received: its bytes and its content type. */
export interface Answer {
  bytes: Buffer;
  contentType: string;
}

/**
 * The JSON of an answer's body (a listing's or a `getschema` one), refused when nested too deep
 * for the recursive code after it, with the run's secrets (`scrub`, the redactor's `data` part)
 * scrubbed from it (see `scrubSecrets`), and the indexes of the elements that held one (`-1`: a
 * body that is no array held one). Errors say what the body is instead (not UTF-8, not JSON,
 * nested too deep); the caller redacts them.
 */
export function answerJson(answer: Answer, origin: string, redact: Redactor, scrub: ((text: string) => string) | undefined = redact.data): { body: unknown; elements: number[] } {
  const raw = parseJson(answerText(answer, origin, redact), answer.contentType, origin, redact);
  refuseDeepNesting(raw, origin);
  if (!scrub) return { body: raw, elements: [] };
  if (!Array.isArray(raw)) {
    const scrubbed = scrubSecrets(raw, scrub);
    return { body: scrubbed.body, elements: scrubbed.found ? [-1] : [] };
  }
  const elements: number[] = [];
  const body = raw.map((element: unknown, index) => {
    const scrubbed = scrubSecrets(element, scrub);
    if (scrubbed.found) elements.push(index);
    return scrubbed.body;
  });
  return { body, elements };
}

/**
 * Whether an answer's body plainly holds none of the run's secrets (`scrub`, the redactor's
 * `data` part, leaves its text as it is, and it has no escape that could spell one): then
 * nothing needs scrubbing, and a run need not parse it to know.
 */
export function plainlyHoldsNoSecret(answer: Answer, scrub: (text: string) => string): boolean {
  if (!isUtf8(answer.bytes)) return false;
  const text = answer.bytes.toString('utf8');
  return !text.includes('\\') && scrub(text) === text;
}

/** What a step made, or the error it threw. */
export type Outcome<R> = { result: R } | { error: unknown };

/** What `make` gives, or the error it throws. */
export function settled<R>(make: () => R): Outcome<R> {
  try {
    return { result: make() };
  } catch (error) {
    return { error };
  }
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
function answerText(answer: Answer, origin: string, redact: Redactor): string {
  const { bytes, contentType } = answer;
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

import { isUtf8 } from 'node:buffer';
import { ResponseError } from '../model/errors.js';
import { redactDeep, redactError, type Redactor } from '../model/redact.js';
import type { ListingSource } from '../model/source.js';
import { KNOWN_FIELDS } from '../model/descriptor.js';
import { KNOWN_FIELD_KEYS } from '../model/field.js';
import { parseArrayElements } from './array-elements.js';
import { parseListing, refuseDeepNesting, type ParsedListing } from './parse-listing.js';
import { notUtf8Error } from './utf8.js';
import { garbageCollector, LARGE_READ_BYTES } from '../util/collect-garbage.js';
import { messageText, msg, own, type Message } from '../model/message.js';

/** A validated listing and where it came from, as the library's callers get it. */
export interface FetchResult extends Omit<ParsedListing, 'warnings'> {
  source: ListingSource;
  /** Things kept but worth telling (unknown action letters …), outside text in them masked. */
  warnings: string[];
}

/** A validated listing and where it came from, its warnings as built (their values not yet masked). */
export interface ParsedAnswer extends ParsedListing {
  source: ListingSource;
}

/** A listing as received, before it is parsed: what the parse depends on, and the parse. */
export interface ListingResponse {
  /** Where the listing came from (credential-free). */
  source: ListingSource;
  /** What the parse depends on besides the secrets: the body (by its `hashOf`), the content type, and the query limit / allowTruncated used to judge truncation. */
  identity: { bodyHash: string; contentType: string; limit: number | undefined; allowTruncated: boolean };
  /** Whether one of the run's secrets occurs in the answer (then parse() scrubs it and the result depends on the secrets). Lazy, computed on first call. */
  echoesSecrets(): boolean;
  /** Validates and normalises (every error redacted), once; later calls return the same result (or throw the same error). */
  parse(): ParsedAnswer;
  /** {@link parse}'s result with its warnings masked, as the library returns it. */
  result(): FetchResult;
}

/** What {@link listingResponse} is made of. */
interface ReceivedListing {
  source: ListingSource;
  identity: ListingResponse['identity'];
  /** The body's bytes (`identity.bodyHash` is their hash). */
  body: Buffer;
  /** Where the answer came from, for messages: a redacted URL or a file name. */
  origin: string;
  /** The run's redactor: every error redacted, the recognisable secrets scrubbed from the listing. */
  redact: Redactor;
}

/**
 * Wraps a received answer; nothing is decoded or validated until asked for. The body is read
 * once, and neither its bytes, its text nor its JSON are kept past what needs them: a listing
 * may be hundreds of MB, and the run goes on to hold its descriptors, lockfile and output.
 */
export function listingResponse({ source, identity, body, origin, redact }: ReceivedListing): ListingResponse {
  let bytes: Buffer | undefined = body;
  const large = body.length >= LARGE_READ_BYTES;
  let json: { body: unknown; elements: number[] } | { error: unknown } | undefined;
  /** The JSON of the body, scrubbed (see `scrubSecrets`): the bytes are let go once it is parsed. */
  const readJson = () => {
    if (json === undefined) {
      try {
        json = answerJson({ body: bytes!, contentType: identity.contentType }, origin, redact);
      } catch (error) {
        json = { error: redactError(error, redact) };
      }
      bytes = undefined;
    }
    if ('error' in json) throw json.error;
    return json;
  };
  let outcome: { result: ParsedAnswer } | { error: unknown } | undefined;
  const settle = (): { result: ParsedAnswer } | { error: unknown } => {
    try {
      const { body, elements } = readJson();
      const parsed = parseListing(body, { origin, limit: identity.limit, allowTruncated: identity.allowTruncated });
      return { result: { ...parsed, warnings: elements.length > 0 ? [echoWarning(elements), ...parsed.warnings] : parsed.warnings, source } };
    } catch (error) {
      return { error: redactError(error, redact) };
    } finally {
      // Parsed: only which elements held a secret is still asked for (echoesSecrets).
      if (json !== undefined && 'body' in json) json = { body: undefined, elements: json.elements };
    }
  };
  const parse = (): ParsedAnswer => {
    if (outcome === undefined) {
      outcome = settle();
      // A large answer is garbage now (once settle's frame, which holds its JSON, is gone), and
      // would stay resident while the run builds its lockfile.
      if (large) garbageCollector().full();
    }
    if ('error' in outcome) throw outcome.error;
    return outcome.result;
  };
  return {
    source,
    identity,
    // Without a secret long enough to look for, nothing is scrubbed: no need to read the body.
    echoesSecrets: () => redact.data !== undefined && readJson().elements.length > 0,
    parse,
    result: () => {
      const parsed = parse();
      return { ...parsed, warnings: parsed.warnings.map((warning) => messageText(warning, redact)) };
    },
  };
}

/** The warning for an answer whose `elements` held one of the run's secrets; `of` names the answer. */
export function echoWarning(elements: number[], of: Message = msg`the listing`): Message {
  const where = elements[0] === -1 ? 'its answer' : `${elements.length === 1 ? 'element' : 'elements'} ${elements.slice(0, 10).join(', ')}${elements.length > 10 ? ' …' : ''}`;
  return msg`the service echoed the API key or secret in ${own(where)} of ${of}; replaced by *** so it is neither stored nor generated.`;
}

/**
 * The JSON of an answer's body with the run's secrets scrubbed from it (see `scrubSecrets`), and
 * the indexes of the elements that held one. Errors say what the body is instead (not UTF-8,
 * not JSON, nested too deep for the recursive code after it); the caller redacts them.
 */
export function answerJson(answer: { body: Buffer; contentType: string }, origin: string, redact: Redactor): { body: unknown; elements: number[] } {
  // An array is parsed a batch of elements at a time from the bytes (array-elements.ts); anything
  // else, and any answer that fails, through its whole text, whose checks say what it is instead.
  // A large one's batch texts are collected as it goes: they would pile up beside the bytes.
  const afterBatch = answer.body.length >= LARGE_READ_BYTES ? garbageCollector().young : undefined;
  const elements = answer.contentType.includes('html') || !isUtf8(answer.body) ? undefined : parseArrayElements(answer.body, { afterBatch });
  const raw = elements ?? parseJson(answerText(answer, origin, redact), answer.contentType, origin, redact);
  refuseDeepNesting(raw, origin);
  return redact.data ? scrubSecrets(raw, redact.data) : { body: raw, elements: [] };
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
    throw new ResponseError(
      msg`${origin}: expected a JSON array, got ${contentType || own('a body')} that is not JSON (${own(jsonFailure(error))}): ${excerpt(text, redact)}`,
      { hint: msg`Check --base-url; the answer did not come from the schema listing service, or was cut off.` },
    );
  }
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
 * the parsed body before it is validated. Returns the indexes of the top-level elements that
 * held one (or `[-1]` for a body that is not an array).
 */
function scrubSecrets(body: unknown, redact: (text: string) => string): { body: unknown; elements: number[] } {
  let found = false;
  const clean = (text: string): string => {
    const result = redact(text);
    found ||= result !== text;
    return result;
  };
  if (!Array.isArray(body)) {
    const scrubbed = redactDeep(body, clean, WIRE_KEYS);
    return { body: scrubbed, elements: found ? [-1] : [] };
  }
  const elements: number[] = [];
  const scrubbed = body.map((element: unknown, index) => {
    found = false;
    const result = redactDeep(element, clean, WIRE_KEYS);
    if (found) elements.push(index);
    return result;
  });
  return { body: scrubbed, elements };
}

import { isUtf8 } from 'node:buffer';
import type { Descriptor } from '../model/descriptor.js';
import { redactError, type Redactor } from '../model/redact.js';
import type { ListingSource } from '../model/source.js';
import { hashOf } from '../util/hash.js';
import { answerJson, plainlyHoldsNoSecret, settled, type Answer, type Outcome } from './answer-body.js';
import { arrayElementSpans } from './answer-elements.js';
import { listingNotArray, readListing, refuseDeepElements, type ListingElement, type ParsedListing, type ParseOptions } from './parse-listing.js';
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
  /**
   * The name of the type each of its elements made with no warning, by the hash of the element's
   * bytes: what the parse of a later answer may know those elements by ({@link KnownElements}).
   * Undefined when its elements cannot be told apart without a parse, or when it held a secret.
   */
  elementNames(): ReadonlyMap<string, string> | undefined;
}

/**
 * The descriptor that an element with this very text (by its `hashOf`) made in an earlier
 * answer, valid and with no warning; undefined when none is known. The parse of an element is a
 * function of its text alone (the run's secrets aside: an answer that holds one is parsed whole),
 * so a known element needs no parse.
 */
export type KnownElements = (textHash: string) => Descriptor | undefined;

/** A listing as received, before it is parsed: what the parse depends on, and the parse. */
export interface ListingResponse {
  /** Where the listing came from (credential-free). */
  source: ListingSource;
  /** What the parse depends on besides the secrets: the body (by its `hashOf`), the content type, and the query limit / allowTruncated used to judge truncation. */
  identity: { bodyHash: string; contentType: string; limit: number | undefined; allowTruncated: boolean };
  /** Whether one of the run's secrets occurs in the answer (then parse() scrubs it and the result depends on the secrets). Lazy, computed on first call. */
  echoesSecrets(): boolean;
  /**
   * Validates and normalises (every error redacted), once; later calls return the same result
   * (or throw the same error). With `known`, the elements it knows are taken as they were and
   * only the others parsed and validated: the same result, errors and warnings.
   */
  parse(known?: KnownElements): ParsedAnswer;
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
 * Wraps a received answer; nothing is decoded or validated until asked for: a run whose cache
 * knows the answer by its hash never parses it.
 */
export function listingResponse({ source, identity, body, origin, redact }: ReceivedListing): ListingResponse {
  const answer = { bytes: body, contentType: identity.contentType };
  /** The body's JSON, scrubbed, once; an error of what the body is (not JSON …) is thrown by echoesSecrets too, one of the listing's (invalid fields …) only by parse. */
  let json: Outcome<{ body: unknown; elements: number[] }> | undefined;
  const readJson = () => {
    json ??= settled(() => answerJson(answer, origin, redact));
    if ('error' in json) throw redactError(json.error, redact);
    return json.result;
  };
  const options: ParseOptions = { origin, limit: identity.limit, allowTruncated: identity.allowTruncated };
  let outcome: Outcome<ParsedAnswer> | undefined;
  const settle = (known: KnownElements | undefined): Outcome<ParsedAnswer> => {
    try {
      // Known elements help only before the body was parsed whole (to look for secrets), and
      // only when there is no secret to scrub from it.
      const holdsNoSecret = json === undefined && (redact.data === undefined || plainlyHoldsNoSecret(answer, redact.data));
      const recalled = known === undefined || !holdsNoSecret ? undefined : readKnowing(answer, options, known);
      if (recalled !== undefined) return { result: { ...recalled.listing, source, elementNames: () => recalled.names } };
      const { body, elements: echoed } = readJson();
      if (!Array.isArray(body)) throw listingNotArray(body, options);
      const elements: unknown[] = body;
      const { listing, named } = readListing(elements.map((value) => ({ value })), options);
      const warnings = echoed.length > 0 ? [echoWarning(echoed), ...listing.warnings] : listing.warnings;
      const elementNames = () => (echoed.length > 0 ? undefined : namesByBytes(answer, elements.length, named));
      return { result: { ...listing, warnings, source, elementNames } };
    } catch (error) {
      return { error: redactError(error, redact) };
    }
  };
  const parse = (known?: KnownElements): ParsedAnswer => {
    outcome ??= settle(known);
    if ('error' in outcome) throw outcome.error;
    return outcome.result;
  };
  return {
    source,
    identity,
    // Without a secret long enough to look for, nothing is scrubbed; an answer that plainly holds
    // none is not parsed to say so.
    echoesSecrets: () => {
      if (redact.data === undefined) return false;
      if (json === undefined && plainlyHoldsNoSecret(answer, redact.data)) return false;
      return readJson().elements.length > 0;
    },
    parse,
    result: () => {
      const { elementNames: _names, ...parsed } = parse();
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
 * The parse of an answer whose elements `known` may know, each other element parsed and
 * validated on its own: the same result, errors and warnings as the whole parse. Undefined when
 * the body's elements cannot be told apart by a scan, or one of them is not JSON (then the whole
 * parse says what is wrong).
 */
function readKnowing(answer: Answer, options: ParseOptions, known: KnownElements): { listing: ParsedListing; names: ReadonlyMap<string, string> } | undefined {
  const spans = elementSpans(answer);
  if (spans === undefined) return undefined;
  const hashes = spans.map(([start, end]) => hashOf(answer.bytes.subarray(start, end)));
  const elements: ListingElement[] = [];
  for (let i = 0; i < spans.length; i++) {
    const descriptor = known(hashes[i]!);
    if (descriptor !== undefined) {
      elements.push({ known: descriptor });
      continue;
    }
    try {
      elements.push({ value: JSON.parse(answer.bytes.toString('utf8', ...spans[i]!)) });
    } catch {
      return undefined;
    }
  }
  refuseDeepElements(elements, options.origin);
  const { listing, named } = readListing(elements, options);
  return { listing, names: namesOf(hashes, named) };
}

/**
 * Where each element of an answer starts and ends, when it is a JSON array in UTF-8 (a byte
 * order mark aside) not labelled HTML; undefined otherwise (its whole parse says what it is).
 */
function elementSpans(answer: Answer): Array<[number, number]> | undefined {
  if (answer.contentType.includes('html') || !isUtf8(answer.bytes)) return undefined;
  const bom = answer.bytes[0] === 0xef && answer.bytes[1] === 0xbb && answer.bytes[2] === 0xbf ? 3 : 0;
  return arrayElementSpans(answer.bytes.subarray(bom))?.map(([start, end]) => [start + bom, end + bom]);
}

/** The names that the `count` elements of an answer made (`named`, by index), by the hash of each element's bytes. */
function namesByBytes(answer: Answer, count: number, named: ReadonlyArray<string | undefined>): ReadonlyMap<string, string> | undefined {
  const spans = elementSpans(answer);
  if (spans === undefined || spans.length !== count) return undefined;
  return namesOf(spans.map(([start, end]) => hashOf(answer.bytes.subarray(start, end))), named);
}

function namesOf(hashes: readonly string[], named: ReadonlyArray<string | undefined>): ReadonlyMap<string, string> {
  const names = new Map<string, string>();
  named.forEach((name, index) => {
    if (name !== undefined) names.set(hashes[index]!, name);
  });
  return names;
}

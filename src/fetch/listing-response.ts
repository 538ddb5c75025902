import { redactError, type Redactor } from '../model/redact.js';
import type { ListingSource } from '../model/source.js';
import { answerJson, plainlyHoldsNoSecret, settled, type Outcome } from './answer-body.js';
import { parseListing, type ParsedListing } from './parse-listing.js';
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
  let outcome: Outcome<ParsedAnswer> | undefined;
  const settle = (): Outcome<ParsedAnswer> => {
    try {
      const { body: elements, elements: echoed } = readJson();
      const parsed = parseListing(elements, { origin, limit: identity.limit, allowTruncated: identity.allowTruncated });
      return { result: { ...parsed, warnings: echoed.length > 0 ? [echoWarning(echoed), ...parsed.warnings] : parsed.warnings, source } };
    } catch (error) {
      return { error: redactError(error, redact) };
    }
  };
  const parse = (): ParsedAnswer => {
    outcome ??= settle();
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

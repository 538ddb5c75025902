import { redactError, type Redactor } from '../model/redact.js';
import type { ListingSource } from '../model/source.js';
import { answerEchoes, isLargeAnswer, readAnswerBody, settled, type Answer } from './answer-body.js';
import { listingReader, parseListing, type ParsedListing } from './parse-listing.js';
import { garbageCollector } from '../util/collect-garbage.js';
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
  /** The body's bytes, as the blocks they were read in (`identity.bodyHash` is their hash): let go of as they are parsed. */
  body: Buffer[];
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
  let blocks: Buffer[] | undefined = body;
  const large = isLargeAnswer(body);
  /** Whether the answer holds one of the run's secrets, when looked for before it was read (undefined when that could not say). */
  let echoes: boolean | undefined;
  let read: { outcome: { result: ParsedListing } | { error: unknown }; elements: number[] } | { error: unknown } | undefined;
  /**
   * The body read (its elements validated and normalised as they are parsed), once: the bytes are
   * let go then. An error of what the body is (not JSON …) is thrown by echoesSecrets too; one of
   * the listing's (invalid fields …) only by parse.
   */
  const readBody = () => {
    if (read === undefined) {
      try {
        // An answer found to hold no secret needs no scrubbing.
        read = readListingBody({ blocks: blocks!, contentType: identity.contentType }, origin, redact, identity, echoes === false ? undefined : redact.data);
      } catch (error) {
        read = { error: redactError(error, redact) };
      }
      blocks = undefined;
      // A large answer's bytes and the texts of its elements are garbage now, and would stay
      // resident while the run builds its lockfile.
      if (large) garbageCollector().full();
    }
    if ('error' in read) throw read.error;
    return read;
  };
  let outcome: { result: ParsedAnswer } | { error: unknown } | undefined;
  const settle = (): { result: ParsedAnswer } | { error: unknown } => {
    try {
      const { outcome, elements } = readBody();
      if ('error' in outcome) throw outcome.error;
      const parsed = outcome.result;
      return { result: { ...parsed, warnings: elements.length > 0 ? [echoWarning(elements), ...parsed.warnings] : parsed.warnings, source } };
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
    // Without a secret long enough to look for, nothing is scrubbed: no need to read the body.
    // Else looked for without reading the answer, which a run that has read it before skips.
    echoesSecrets: () => {
      if (redact.data === undefined) return false;
      if (read === undefined) echoes ??= answerEchoes({ blocks: blocks!, contentType: identity.contentType }, redact.data);
      return echoes ?? readBody().elements.length > 0;
    },
    parse,
    result: () => {
      const parsed = parse();
      return { ...parsed, warnings: parsed.warnings.map((warning) => messageText(warning, redact)) };
    },
  };
}

/**
 * A listing's body validated and normalised ({@link readAnswerBody}), and the indexes of its
 * elements that held one of the run's secrets.
 */
function readListingBody(answer: Answer, origin: string, redact: Redactor, identity: ListingResponse['identity'], scrub: ((text: string) => string) | undefined) {
  const options = { origin, limit: identity.limit, allowTruncated: identity.allowTruncated };
  const read = readAnswerBody(answer, origin, redact, () => listingReader(options), scrub);
  return 'body' in read ? { outcome: settled(() => parseListing(read.body, options)), elements: read.elements } : read;
}

/** The warning for an answer whose `elements` held one of the run's secrets; `of` names the answer. */
export function echoWarning(elements: number[], of: Message = msg`the listing`): Message {
  const where = elements[0] === -1 ? 'its answer' : `${elements.length === 1 ? 'element' : 'elements'} ${elements.slice(0, 10).join(', ')}${elements.length > 10 ? ' …' : ''}`;
  return msg`the service echoed the API key or secret in ${own(where)} of ${of}; replaced by *** so it is neither stored nor generated.`;
}

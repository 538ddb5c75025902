import { createRedactor, redactError } from '../model/redact.js';
import type { ListingSource } from '../model/source.js';
import { interpretBody } from './interpret-body.js';
import { parseListing, type ParsedListing } from './parse-listing.js';
import { echoRedactor, scrubSecrets } from './scrub-secrets.js';

/** A validated listing and where it came from. */
export interface FetchResult extends ParsedListing {
  source: ListingSource;
}

/** A listing as received, before it is parsed: what the parse depends on, and the parse. */
export interface ListingResponse {
  /** Where the listing came from (credential-free). */
  source: ListingSource;
  /** What the parse depends on besides the secrets: the body bytes, the content type, and the query limit / allowTruncated used to judge truncation. */
  identity: { body: Uint8Array; contentType: string; limit: number | undefined; allowTruncated: boolean };
  /** Whether one of the run's secrets occurs in the answer (then parse() scrubs it and the result depends on the secrets). Lazy, computed on first call. */
  echoesSecrets(): boolean;
  /** Validates and normalises (every error redacted), once; later calls return the same result. */
  parse(): FetchResult;
}

/** What {@link listingResponse} is made of. */
export interface ReceivedListing {
  source: ListingSource;
  identity: ListingResponse['identity'] & { body: Buffer };
  /** Where the answer came from, for messages: a redacted URL or a file name. */
  origin: string;
  /** The run's secrets: redacted from every error, scrubbed from the listing. */
  secrets: ReadonlyArray<string | undefined>;
}

/** Wraps a received answer; nothing is decoded or validated until asked for. */
export function listingResponse({ source, identity, origin, secrets }: ReceivedListing): ListingResponse {
  const redact = createRedactor(secrets);
  const echo = echoRedactor(secrets);
  const redacting = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      throw redactError(error, redact);
    }
  };
  let scrubbed: ReturnType<typeof scrubSecrets> | undefined;
  const scrub = () =>
    (scrubbed ??= redacting(() => {
      const raw = interpretBody(identity.body.toString('utf8'), identity.contentType, origin, redact);
      return echo ? scrubSecrets(raw, echo) : { body: raw, elements: [] };
    }));
  let result: FetchResult | undefined;
  return {
    source,
    identity,
    // Without a secret long enough to look for, nothing is scrubbed: no need to read the body.
    echoesSecrets: () => echo !== undefined && scrub().elements.length > 0,
    parse: () =>
      (result ??= redacting(() => {
        const { body, elements } = scrub();
        const parsed = parseListing(body, { origin, limit: identity.limit, allowTruncated: identity.allowTruncated });
        return { ...parsed, warnings: elements.length > 0 ? [echoWarning(elements), ...parsed.warnings] : parsed.warnings, source };
      })),
  };
}

function echoWarning(elements: number[]): string {
  const where = elements[0] === -1 ? 'its answer' : `${elements.length === 1 ? 'element' : 'elements'} ${elements.slice(0, 10).join(', ')}${elements.length > 10 ? ' …' : ''}`;
  return `the service echoed the API key or secret in ${where} of the listing; replaced by *** so it is neither stored nor generated.`;
}

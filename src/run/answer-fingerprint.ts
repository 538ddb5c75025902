import { hashOf } from '../util/hash.js';
import type { ListingSource } from '../model/source.js';
import { BUILD, WIRE_SCHEME } from '../util/version.js';

/** Everything the parse of an answer depends on, besides the run's secrets. */
export interface AnswerIdentity {
  /** The `hashOf` of the body's bytes. */
  bodyHash: string;
  contentType: string;
  source: ListingSource;
  limit: number | undefined;
  allowTruncated: boolean;
}

/**
 * The fingerprint of an answer: equal fingerprints parse to the same listing (with the same
 * warnings and errors), so an answer seen before need not be validated again. schema-sync's
 * build (`BUILD`: its version, and the stamp of the sources a checkout's build was made from) and
 * the fetch stage's `WIRE_SCHEME` are part of it: under another, the same bytes may parse
 * otherwise.
 */
export function answerFingerprint(identity: AnswerIdentity): string {
  const { bodyHash, contentType, source, limit, allowTruncated } = identity;
  return hashOf(JSON.stringify([BUILD, WIRE_SCHEME, contentType, source, limit ?? null, allowTruncated, bodyHash]));
}

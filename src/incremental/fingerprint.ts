import { hashOf } from '../model/hash.js';
import type { ListingSource } from '../model/source.js';
import { VERSION } from '../model/version.js';

/** Everything the parse of an answer depends on, besides the run's secrets. */
export interface AnswerIdentity {
  body: Uint8Array;
  contentType: string;
  source: ListingSource;
  limit: number | undefined;
  allowTruncated: boolean;
}

/**
 * The fingerprint of an answer: equal fingerprints parse to the same listing (with the same
 * warnings and errors), so an answer seen before need not be validated again. schema-sync's
 * version is part of it: another version may parse the same bytes otherwise.
 */
export function answerFingerprint(identity: AnswerIdentity): string {
  const { body, contentType, source, limit, allowTruncated } = identity;
  const head = Buffer.from(`${JSON.stringify([VERSION, contentType, source, limit ?? null, allowTruncated])}\0`);
  return hashOf(Buffer.concat([head, body]));
}

import { createHash } from 'node:crypto';
import { VERSION } from '../model/version.js';
import type { ListingSource } from '../model/source.js';

/** What a listing's parse result depends on, apart from the run's secrets. */
export interface FingerprintParts {
  /** The body as received (decompressed). */
  body: Uint8Array | string;
  contentType: string;
  source: ListingSource;
  limit: number | undefined;
  allowTruncated: boolean | undefined;
}

/**
 * A fingerprint of everything that decides what a response parses to: the body's bytes, its
 * content type, the recorded source, the truncation rules and schema-sync's version. Equal
 * fingerprints give equal results, so a run can reuse what it learnt from the last one.
 */
export function listingFingerprint(parts: FingerprintParts): string {
  const head = JSON.stringify(['schema-sync listing', VERSION, parts.contentType, parts.source, parts.limit ?? null, parts.allowTruncated === true]);
  return createHash('sha256').update(head).update('\0').update(parts.body).digest('hex').slice(0, 32);
}

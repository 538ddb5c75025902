import { resolve } from 'node:path';
import { readListingInput, requestListing, type FetchOptions } from '../fetch/index.js';
import type { KnownElements, ParsedAnswer } from '../fetch/listing-response.js';
import type { ListingSource } from '../model/source.js';
import { ConfigError } from '../model/errors.js';
import { answerFingerprint } from './answer-fingerprint.js';
import type { SourceOptions } from './options.js';
import type { RunContext } from './run-context.js';
import { msg } from '../model/message.js';

/** The service's answer, validated only when `parse` is called. */
export interface Answer {
  source: ListingSource;
  /**
   * The hash of everything its parse depends on (`answerFingerprint`), by which the cache recalls
   * what it parsed to; undefined for a saved answer (`input`) and for one that echoes the run's
   * secrets (its parse depends on them), which are never remembered.
   */
  fingerprint: string | undefined;
  /** The validated listing (validated once; later calls give the same result); `known` as `ListingResponse.parse` takes it. */
  parse(known?: KnownElements): ParsedAnswer;
}

/** Gets the listing from the service (validated when `parse` is first called), or from `input` when given (validated at once). */
export async function acquireListing(run: RunContext, options: SourceOptions): Promise<Answer> {
  if (options.input !== undefined) {
    const response = await readListingInput({ ...options, input: options.input === '-' ? '-' : resolve(run.paths.cwd, options.input), query: options });
    const result = response.parse();
    return { source: result.source, fingerprint: undefined, parse: () => result };
  }
  if (!options.baseUrl) {
    throw new ConfigError(msg`no base URL: schema-sync does not know where the service is.`, {
      hint: msg`Pass --base-url, set SCHEMA_SYNC_BASE_URL, or add "baseUrl" to schema-sync.config.json (or use --input FILE).`,
      setting: 'baseUrl',
    });
  }
  const response = await requestListing({ ...serviceOptions(options, options.baseUrl), query: options });
  // An answer that holds one of the run's secrets parses to something that depends on them.
  const fingerprint = response.echoesSecrets() ? undefined : answerFingerprint({ ...response.identity, source: response.source });
  return { source: response.source, fingerprint, parse: (known) => response.parse(known) };
}

/**
 * How to reach the service, from a run's options: the same for the listing and for getschema.
 * The run's options carry the service settings under the names the fetch takes (both are the
 * settings table's), so they pass as they are; only the base URL, known to be set, and the hook
 * are named.
 */
export function serviceOptions(options: SourceOptions, baseUrl: string): Omit<FetchOptions, 'query' | 'allowTruncated'> {
  return { ...options, baseUrl, onEvent: options.onFetchEvent };
}

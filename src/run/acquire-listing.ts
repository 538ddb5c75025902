import { resolve } from 'node:path';
import { fetchListing, readInputListing, type FetchResult, type KnownFingerprint, type KnownListing } from '../fetch/index.js';
import { ConfigError } from '../model/errors.js';
import type { SourceOptions } from './options.js';

/**
 * Gets the listing from the service, or from `input` when given. A fetched answer whose
 * fingerprint `isKnown` accepts comes back unparsed (see {@link fetchListing}); warnings of a
 * parsed listing go to `onWarning` here, those of a known one are the caller's to repeat.
 */
export async function acquireListing(options: SourceOptions, cwd: string, isKnown?: KnownFingerprint): Promise<FetchResult | KnownListing> {
  let result: FetchResult | KnownListing;
  if (options.input !== undefined) {
    result = await readInputListing({
      input: options.input === '-' ? '-' : resolve(cwd, options.input),
      query: options.query,
      allowTruncated: options.allowTruncated,
      baseUrl: options.baseUrl,
    });
  } else {
    if (!options.baseUrl) {
      throw new ConfigError('no base URL: schema-sync does not know where the service is.', {
        hint: 'Pass --base-url, set SCHEMA_SYNC_BASE_URL, or add "baseUrl" to schema-sync.config.json (or use --input FILE).',
      });
    }
    result = await fetchListing(
      {
        baseUrl: options.baseUrl,
        query: options.query,
        credentials: { apiKey: options.apiKey, secret: options.secret },
        timeoutMs: options.timeoutMs,
        retries: options.retries,
        allowTruncated: options.allowTruncated,
        onEvent: options.onFetchEvent,
      },
      isKnown,
    );
  }
  if (!isKnownListing(result)) for (const warning of result.warnings) options.onWarning?.(warning);
  return result;
}

/** Parses a known listing after all (its warnings reported then); a parsed one as is. */
export function parsedListing(listing: FetchResult | KnownListing, options: SourceOptions): FetchResult {
  if (!isKnownListing(listing)) return listing;
  const parsed = listing.parse();
  for (const warning of parsed.warnings) options.onWarning?.(warning);
  return parsed;
}

/** Whether the listing came back unparsed, its fingerprint known. */
export function isKnownListing(listing: FetchResult | KnownListing): listing is KnownListing {
  return 'known' in listing && listing.known === true;
}

/**
 * Runs `work` (local checks) while the listing request is in flight, then waits for the request:
 * neither waits for the other. Should `work` fail, its error is the one reported, once the
 * request has settled (a process must not exit with a request still open).
 */
export async function whileFetching<T, L>(fetching: Promise<L>, work: () => Promise<T>): Promise<[T, L]> {
  // Awaited below; this only keeps an early rejection from going unhandled meanwhile.
  fetching.catch(() => undefined);
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await fetching.catch(() => undefined);
    throw error;
  }
  return [result, await fetching];
}

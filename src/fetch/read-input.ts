import { readFile } from 'node:fs/promises';
import { buffer } from 'node:stream/consumers';
import { ConfigError } from '../model/errors.js';
import { listingResponse, type FetchResult, type ListingResponse } from './listing-response.js';
import { displayBaseUrl, publicQuery, validateLimit, type ListingQuery } from './query.js';

/** Options of {@link readListingInput}. */
export interface ReadInputOptions {
  /** A saved `/rest/proto` response: a file path, or `-` for standard input. */
  input: string;
  /** The query it was fetched with, if known; `limit` enables the truncation check. */
  query?: ListingQuery;
  allowTruncated?: boolean;
  /** Recorded as the source when given (without credentials). */
  baseUrl?: string;
  /** Standard input, for `-`. @default process.stdin */
  stdin?: NodeJS.ReadableStream;
}

/** Reads a saved response instead of the network; validated exactly like a fetched one. */
export async function readInputListing(options: ReadInputOptions): Promise<FetchResult> {
  return (await readListingInput(options)).parse();
}

/**
 * Reads a saved response (a file, or standard input for `-`) into the same unparsed shape as a
 * fetched one: no content type, no secrets, the file name as the origin in messages.
 */
export async function readListingInput(options: ReadInputOptions): Promise<ListingResponse> {
  const origin = options.input === '-' ? 'standard input' : options.input;
  let body: Buffer;
  try {
    body = options.input === '-' ? await buffer(options.stdin ?? process.stdin) : await readFile(options.input);
  } catch (error) {
    throw new ConfigError(`cannot read --input ${origin}: ${(error as Error).message}`, {
      hint: 'Pass a file saved from GET {base_url}/rest/proto, or - to read standard input.',
    });
  }
  const query = options.query ?? {};
  const limit = validateLimit(query.limit);
  const source = options.baseUrl ? { baseUrl: displayBaseUrl(options.baseUrl), query: publicQuery(query) } : { query: publicQuery(query) };
  return listingResponse({ source, identity: { body, contentType: '', limit, allowTruncated: options.allowTruncated === true }, origin, secrets: [] });
}

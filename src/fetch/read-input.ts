import { ConfigError, ResponseError, SchemaSyncError } from '../model/errors.js';
import { createRedactor, type Redactor } from '../model/redact.js';
import { listingResponse, type FetchResult, type ListingResponse } from './listing-response.js';
import { displayBaseUrl, publicQuery, validateLimit, type ListingQuery } from './query.js';
import { readAtMost, readFileAtMost, tooLargeError, validateMaxBytes, type ReadBody } from './read-limited.js';
import { msg } from '../model/message.js';
import type { Settings } from '../config/settings.js';

/**
 * Options of {@link readListingInput}: the saved answer, and the settings that judge it as they
 * judge a fetched one (`allowTruncated`, `maxBytes`; `baseUrl`, recorded as the source when given,
 * without credentials).
 */
export interface ReadInputOptions extends Pick<Settings, 'allowTruncated' | 'baseUrl' | 'maxBytes'> {
  /** A saved `/rest/proto` response: a file path, or `-` for standard input. */
  input: string;
  /** The query it was fetched with, if known; `limit` enables the truncation check. */
  query?: ListingQuery;
  /** Standard input, for `-`. @default process.stdin */
  stdin?: NodeJS.ReadableStream;
  /** The run's redactor: a saved answer that echoes its secrets is scrubbed as a fetched one is. @default none (no secrets) */
  redact?: Redactor;
}

/** Reads a saved response instead of the network; validated exactly like a fetched one. */
export async function readInputListing(options: ReadInputOptions): Promise<FetchResult> {
  return (await readListingInput(options)).result();
}

/**
 * Reads a saved response (a file, or standard input for `-`) into the same unparsed shape as a
 * fetched one: no content type, the file name as the origin in messages.
 */
export async function readListingInput(options: ReadInputOptions): Promise<ListingResponse> {
  const origin = options.input === '-' ? 'standard input' : options.input;
  const maxBytes = validateMaxBytes(options.maxBytes);
  let body: ReadBody;
  try {
    // Streamed and counted, like a fetched body: a saved answer can be endless too (a pipe, /dev/zero).
    const tooLarge = () => tooLargeError(origin, maxBytes, msg`the input`);
    body = options.input === '-' ? await readAtMost(options.stdin ?? process.stdin, undefined, maxBytes, tooLarge) : await readFileAtMost(options.input, maxBytes, tooLarge);
  } catch (error) {
    if (error instanceof SchemaSyncError) throw error;
    throw new ConfigError(msg`cannot read --input ${origin}: ${(error as Error).message}`, {
      hint: msg`Pass a file saved from GET {base_url}/rest/proto, or - to read standard input.`,
    });
  }
  const query = options.query ?? {};
  const limit = validateLimit(query.limit);
  const source = options.baseUrl ? { baseUrl: displayBaseUrl(options.baseUrl), query: publicQuery(query) } : { query: publicQuery(query) };
  const identity = { bodyHash: body.hash, contentType: '', limit, allowTruncated: options.allowTruncated === true };
  const response = listingResponse({ source, identity, body: body.bytes, origin, redact: options.redact ?? createRedactor([]) });
  return {
    ...response,
    parse: () => {
      try {
        return response.parse();
      } catch (error) {
        throw inputHint(error, origin);
      }
    },
  };
}

/**
 * A body that is no answer at all, told as an answer of the service is (`check --base-url`), with
 * the hint for `--input` instead: no URL was asked.
 */
function inputHint(error: unknown, origin: string): unknown {
  if (!(error instanceof ResponseError) || !error.hint?.includes('--base-url')) return error;
  const hint = `--input reads an answer saved from GET {base_url}/rest/proto (a JSON array of descriptors): check what was given to --input (here ${origin}), or fetch with --base-url instead.`;
  return Object.assign(error, { hint });
}

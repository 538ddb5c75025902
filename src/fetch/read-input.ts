import { readFile } from 'node:fs/promises';
import { ConfigError } from '../model/errors.js';
import { createRedactor } from '../model/redact.js';
import { interpretBody } from './interpret-body.js';
import { parseListing } from './parse-listing.js';
import type { FetchResult } from './fetch-descriptors.js';
import { displayBaseUrl, publicQuery, validateLimit, type ListingQuery } from './query.js';

/** Options of {@link readInputListing}. */
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
  const origin = options.input === '-' ? 'standard input' : options.input;
  let text: string;
  try {
    text = options.input === '-' ? await readStream(options.stdin ?? process.stdin) : await readFile(options.input, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read --input ${origin}: ${(error as Error).message}`, {
      hint: 'Pass a file saved from GET {base_url}/rest/proto, or - to read standard input.',
    });
  }
  const query = options.query ?? {};
  const body = interpretBody(text, '', origin, createRedactor([]));
  const parsed = parseListing(body, { origin, limit: validateLimit(query.limit), allowTruncated: options.allowTruncated });
  const source = options.baseUrl ? { baseUrl: displayBaseUrl(options.baseUrl), query: publicQuery(query) } : { query: publicQuery(query) };
  return { ...parsed, source };
}

async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

import { resolve } from 'node:path';
import { fetchDescriptors, readInputListing, type FetchResult } from '../fetch/index.js';
import { ConfigError } from '../model/errors.js';
import type { SourceOptions } from './options.js';

/** Gets the listing from the service, or from `input` when given. */
export async function acquireListing(options: SourceOptions, cwd: string): Promise<FetchResult> {
  let result: FetchResult;
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
    result = await fetchDescriptors({
      baseUrl: options.baseUrl,
      query: options.query,
      credentials: { apiKey: options.apiKey, secret: options.secret },
      timeoutMs: options.timeoutMs,
      retries: options.retries,
      allowTruncated: options.allowTruncated,
      onEvent: options.onFetchEvent,
    });
  }
  for (const warning of result.warnings) options.onWarning?.(warning);
  return result;
}

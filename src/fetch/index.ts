export { fetchDescriptors, requestListing, type FetchEvent, type FetchOptions } from './fetch-descriptors.js';
export type { FetchResult, ListingResponse } from './listing-response.js';
export { readInputListing, readListingInput, type ReadInputOptions } from './read-input.js';
export { parseListing, type ParsedListing, type ParseOptions } from './parse-listing.js';
export { buildRequestUrl, displayBaseUrl, publicQuery, validateLimit, MAX_LIMIT, type Credentials, type ListingQuery } from './query.js';
export { parseRetryAfter, retryDelayMs, type BackoffOptions } from './retry-policy.js';

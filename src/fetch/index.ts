export { fetchDescriptors, fetchListing, type FetchEvent, type FetchOptions, type FetchResult, type KnownFingerprint, type KnownListing } from './fetch-descriptors.js';
export { listingFingerprint } from './fingerprint.js';
export { readInputListing, type ReadInputOptions } from './read-input.js';
export { parseListing, type ParsedListing, type ParseOptions } from './parse-listing.js';
export { buildRequestUrl, displayBaseUrl, publicQuery, validateLimit, MAX_LIMIT, type Credentials, type ListingQuery } from './query.js';
export { parseRetryAfter, retryDelayMs, type BackoffOptions } from './retry-policy.js';

export { fetchDescriptors, requestListing, type FetchEvent, type FetchOptions, type RetryTimers } from './fetch-descriptors.js';
export type { FetchResult } from './listing-response.js';
export { readInputListing, readListingInput } from './read-input.js';
export type { ListingQuery } from './query.js';
export { fetchSchemas, type FetchedSchemas, type FetchSchemasOptions } from './fetch-schemas.js';

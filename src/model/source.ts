/** Where a listing came from, as recorded in the lockfile: never a secret. */
export interface ListingSource {
  /** Base URL without credentials, query or fragment; absent for `--input`. */
  baseUrl?: string;
  /** The non-secret query parameters that were sent, keys sorted. */
  query: Record<string, string>;
}

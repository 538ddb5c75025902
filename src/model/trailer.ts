/**
 * The `QueryResult` status element that may close a listing: not a descriptor. Declared here,
 * not inferred from the zod schema, so the public type declarations do not pull in zod's.
 */
export interface TrailerMessage {
  /** How many messages the server says it sent. */
  numMessagesSent?: number;
  queryElapsed?: unknown;
  /** `Ok`, or what went wrong. */
  result: string;
  /** The server's explanation of a result other than `Ok`. */
  detail?: unknown;
  [field: string]: unknown;
}

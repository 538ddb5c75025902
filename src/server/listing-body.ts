/**
 * The body of a listing answer: the selected elements with their header key spelled as asked,
 * plus the optional `QueryResult` trailer. Pure and deterministic (no timestamps), so tests can
 * compare bodies byte for byte.
 */

import { isRecord } from './listing-query.js';
import type { HeaderKey, TrailerOptions } from './options.js';

/** The header type keys servers use; either one is renamed to the configured spelling. */
const HEADER_KEYS: readonly HeaderKey[] = ['msgType', 'mTyp'];

/**
 * Returns the element with its header type key renamed to `headerKey`, keeping the key's
 * position. The input is never mutated (the listing is shared between requests); elements
 * without a recognisable header are returned as they are.
 */
export function withHeaderKey(element: unknown, headerKey: HeaderKey): unknown {
  if (!isRecord(element)) return element;
  const header = element['header'];
  if (!isRecord(header)) return element;
  const current = HEADER_KEYS.find((key) => key !== headerKey && Object.hasOwn(header, key));
  if (current === undefined) return element;
  const renamed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(header)) {
    // If both spellings are present, the configured one keeps its own value.
    if (key === current) {
      if (!Object.hasOwn(header, headerKey)) renamed[headerKey] = value;
    } else {
      renamed[key] = value;
    }
  }
  return { ...element, header: renamed };
}

/** Builds the `QueryResult` status element real servers append after the descriptors. */
export function buildTrailer(
  trailer: TrailerOptions,
  context: { descriptorsSent: number; headerKey: HeaderKey },
): Record<string, unknown> {
  const message: Record<string, unknown> = {
    numMessagesSent: trailer.numMessagesSent ?? context.descriptorsSent,
    // Always 0: a real elapsed time would make bodies differ between identical requests.
    queryElapsed: 0,
    result: trailer.result ?? 'Ok',
  };
  if (trailer.detail !== undefined) message['detail'] = trailer.detail;
  return { header: { [context.headerKey]: 'QueryResult' }, message };
}

/** What a listing body is made of. */
export interface ListingBodyInput {
  /** The elements selected by the request's query, in order. */
  elements: readonly unknown[];
  /** Rename header type keys to this spelling; unset leaves them alone. */
  headerKey?: HeaderKey | undefined;
  /** Append a `QueryResult` element; `false`/unset appends none. */
  trailer?: false | TrailerOptions | undefined;
}

/** Renders the JSON text of a listing answer. */
export function renderListingBody(input: ListingBodyInput): string {
  const { headerKey } = input;
  const body: unknown[] =
    headerKey === undefined ? [...input.elements] : input.elements.map((e) => withHeaderKey(e, headerKey));
  if (input.trailer) {
    body.push(
      buildTrailer(input.trailer, {
        descriptorsSent: input.elements.length,
        headerKey: headerKey ?? 'msgType',
      }),
    );
  }
  return JSON.stringify(body);
}

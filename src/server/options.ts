/**
 * Options of the bundled reference server, and the checks that keep it a loopback-only test
 * double: it serves whatever listing it is given, so it must never be reachable from elsewhere.
 */

import { isIPv4 } from 'node:net';
import { ConfigError } from '../model/errors.js';

/** The two spellings of the header's type key that real servers use. */
export type HeaderKey = 'msgType' | 'mTyp';

/** What the appended `QueryResult` status element says; every field has a realistic default. */
export interface TrailerOptions {
  /** The `result` of the query; anything other than `Ok` tells the client the listing failed. @default 'Ok' */
  result?: string;
  /** The `detail` text, sent only when set (real servers add it to failed results). */
  detail?: string;
  /** Overrides `numMessagesSent`, e.g. to disagree with the elements sent. @default the number of elements sent */
  numMessagesSent?: number;
}

/** How the reference server answers `GET /rest/proto`. */
export interface ReferenceServerOptions {
  /**
   * The raw wire elements to serve, in order, exactly as given (only the header key may be
   * rewritten, see `headerKey`). Anything goes, so clients can be tested against bad elements.
   * @example [{ header: { msgType: 'MsgDesc' }, message: { name: 'Order', mNum: 1 } }]
   */
  listing: unknown[];
  /** When set, a request whose `apikey` query parameter differs gets a 401. */
  apiKey?: string;
  /** When set, a request whose `secret` query parameter differs gets a 401. */
  secret?: string;
  /** The address to listen on; only loopback addresses are accepted. @default '127.0.0.1' */
  host?: string;
  /** The port to listen on; 0 picks any free port (read the real one from `url`). @default 0 */
  port?: number;
  /**
   * Renames each element's header type key (`msgType` or `mTyp`) to this one, as servers
   * differ on the spelling. Unset: headers are served as the listing has them.
   */
  headerKey?: HeaderKey;
  /**
   * Appends a `QueryResult` status element after the descriptors, as many servers do. @default false
   * @example { result: 'Error', detail: 'query timed out' }
   */
  trailer?: false | TrailerOptions;
  /**
   * 401 bodies echo the received `apikey` (and `secret`) back, like real servers do, so that
   * clients can be tested for redacting them. @default true
   */
  echoSecretsInErrors?: boolean;
}

/** The options that may change while the server runs (everything but where it listens). */
export type MutableServerOptions = Omit<ReferenceServerOptions, 'host' | 'port'>;

/** The default listen address: IPv4 loopback. */
export const DEFAULT_HOST = '127.0.0.1';

/** True for an address on the loopback interface (127.0.0.0/8, ::1, or their mapped forms). */
export function isLoopbackAddress(address: string): boolean {
  const plain = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  if (isIPv4(plain)) return plain.startsWith('127.');
  return plain === '::1' || plain === '0:0:0:0:0:0:0:1';
}

/**
 * Checks the listen address before binding. `localhost` is accepted because it names loopback;
 * the bound address is checked again after listening, in case the resolver says otherwise.
 */
export function assertLoopbackHost(host: string): void {
  if (host === 'localhost' || isLoopbackAddress(host)) return;
  throw new ConfigError(`The reference server listens on loopback only, not on "${host}".`, {
    hint: `Use ${DEFAULT_HOST} (the default), ::1 or localhost.`,
  });
}

/** Checks a listen port: an integer 0..65535, where 0 means any free port. */
export function assertPort(port: number): void {
  if (Number.isInteger(port) && port >= 0 && port <= 65535) return;
  throw new ConfigError(`Invalid reference server port ${String(port)}.`, {
    hint: 'Use an integer from 0 to 65535; 0 picks any free port.',
  });
}

/** Checks that a listing is an array, since it is served as the body's top-level array. */
export function assertListing(listing: unknown, origin: string): asserts listing is unknown[] {
  if (Array.isArray(listing)) return;
  throw new ConfigError(`${origin}: the listing must be an array of wire elements.`, {
    hint: 'Pass the parsed JSON array, e.g. from loadListingFile().',
  });
}

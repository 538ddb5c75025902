/**
 * The bundled reference server: a loopback HTTP server that answers `GET /rest/proto` the way
 * real deployments do. The `serve` command and the demo run against it, and the tests wrap it
 * (through `deliver`) to play the ways deployments fail. It serves whatever listing it is given,
 * so it must never be reachable from elsewhere: it listens on loopback only.
 */

import { msg, own } from '../model/message.js';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isIPv4, type AddressInfo } from 'node:net';
import { ConfigError } from '../model/errors.js';
import { answerRequest, errorAnswer, recordRequest, sendAnswer, type Answer, type RecordedRequest } from './answer.js';
import { assertSchemas, type SchemaSet } from './schemas.js';
import type { HeaderKey } from './header-keys.js';
import type { RecordSet } from './records.js';

/** The two spellings of the header's type key that real servers use. */
export type { HeaderKey };

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
  /**
   * The field descriptors `cmd=getschema&msgType=<name>` answers with, by message type name (see
   * `schemas.ts`). A type of the listing without an entry has no fields. @default {}
   */
  schemas?: SchemaSet;
  /**
   * The records `cmd=getmsgs` answers from on `/rest/json` and `/rest/jsonf` (`loadRecordFiles`,
   * `records.ts`); without them, those paths are not found.
   */
  records?: RecordSet;
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
   * Sends each answer; a wrapper passes its own to change how answers go out (late, cut off,
   * replaced). It must send something, or drop the connection, for every exchange.
   * @default sends the answer as it is ({@link sendAnswer})
   */
  deliver?: Deliver;
}

/** One request and the answer a healthy server gives it, about to be sent. */
export interface Exchange {
  /** The request as the server saw it. */
  request: RecordedRequest;
  /** The answer a healthy server gives (a 500 when the listing cannot be served). */
  answer: Answer;
  /** Where the answer goes. */
  response: ServerResponse;
  /** Aborts when the server closes: a delivery that waits must stop then. */
  signal: AbortSignal;
}

/** Sends an exchange's answer; resolves when it is sent or the connection is dropped. */
export type Deliver = (exchange: Exchange) => void | Promise<void>;

/** The options that may change while the server runs (everything but where it listens and how it sends). */
export type MutableServerOptions = Omit<ReferenceServerOptions, 'host' | 'port' | 'deliver'>;

const DEFAULT_HOST = '127.0.0.1';

/** A running reference server. */
export interface ReferenceServer {
  /** The base URL, e.g. `http://127.0.0.1:41234`; clients GET `${url}/rest/proto`. */
  readonly url: string;
  /** Serves another listing from the next request on. */
  setListing(listing: unknown[]): void;
  /** Changes options from the next request on; a key given as `undefined` resets it. */
  setOptions(patch: Partial<MutableServerOptions>): void;
  /** Stops the server, dropping open connections and aborting deliveries still waiting. */
  close(): Promise<void>;
}

/**
 * Starts a reference server on loopback.
 * @throws ConfigError for a non-loopback host, a bad port, a listing that is not an array, or
 *   when the port cannot be bound
 * @example
 * const server = await startReferenceServer({ listing, apiKey: 'k' });
 * await fetch(`${server.url}/rest/proto?apikey=k`);
 * await server.close();
 */
export async function startReferenceServer(options: ReferenceServerOptions): Promise<ReferenceServer> {
  const { host = DEFAULT_HOST, port = 0, deliver = sendExchange, ...initial } = options;
  assertLoopbackHost(host);
  assertPort(port);
  assertListing(initial.listing, 'startReferenceServer');
  if (initial.schemas !== undefined) assertSchemas(initial.schemas, 'startReferenceServer');

  let settings: MutableServerOptions = { ...initial };
  // Aborted by close(): cuts short every delivery still waiting.
  const closing = new AbortController();

  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    // No Date header: identical requests get byte-identical answers.
    response.sendDate = false;
    const recorded = recordRequest(request);
    let answer: Answer;
    try {
      answer = answerRequest(recorded, settings);
    } catch (error) {
      // E.g. a listing that cannot be serialised: report it to the client, never crash the host.
      const reason = error instanceof Error ? error.message : String(error);
      answer = errorAnswer(500, `reference server cannot answer: ${reason}`);
    }
    // Through a promise, so a delivery that throws at once is caught like one that rejects later.
    Promise.resolve().then(() => deliver({ request: recorded, answer, response, signal: closing.signal })).catch(() => {
      // Closing destroys the socket itself; otherwise a failed delivery must not crash the
      // process that hosts the server: answer 500 if still possible.
      if (closing.signal.aborted) return;
      if (response.headersSent) {
        response.destroy();
        return;
      }
      const failed = errorAnswer(500, 'reference server failed to send its answer');
      response.writeHead(failed.status, failed.headers).end(failed.body);
    });
  };

  const server = createServer(handle);
  try {
    await once(server.listen(port, host), 'listening');
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ConfigError(msg`The reference server cannot listen on ${host}:${port}: ${message}.`, {
      hint: msg`Pick another port, or 0 for any free port.`,
      cause: error,
    });
  }
  const address = server.address() as AddressInfo;
  if (!isLoopbackAddress(address.address)) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw new ConfigError(msg`The reference server bound to ${address.address}, which is not loopback; stopped it.`, {
      hint: msg`Use ${own(DEFAULT_HOST)} as the host.`,
    });
  }

  // Memoised, so concurrent or repeated calls all wait for the same shutdown.
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      closing.abort();
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closed;
  };

  return {
    url: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`,
    setListing(listing) {
      assertListing(listing, 'setListing');
      settings = { ...settings, listing };
    },
    setOptions(patch) {
      if ('listing' in patch) assertListing(patch.listing, 'setOptions');
      if (patch.schemas !== undefined) assertSchemas(patch.schemas, 'setOptions');
      settings = { ...settings, ...patch } as MutableServerOptions;
    },
    close,
  };
}

/** The default delivery: the answer as it is. */
const sendExchange: Deliver = ({ response, answer }) => sendAnswer(response, answer);

/** True for an address on the loopback interface (127.0.0.0/8, ::1, or their mapped forms). */
function isLoopbackAddress(address: string): boolean {
  const plain = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  if (isIPv4(plain)) return plain.startsWith('127.');
  return plain === '::1' || plain === '0:0:0:0:0:0:0:1';
}

/**
 * Checks the listen address before binding. `localhost` is accepted because it names loopback;
 * the bound address is checked again after listening, in case the resolver says otherwise.
 */
function assertLoopbackHost(host: string): void {
  if (host === 'localhost' || isLoopbackAddress(host)) return;
  throw new ConfigError(msg`The reference server listens on loopback only, not on "${host}".`, {
    hint: msg`Use ${own(DEFAULT_HOST)} (the default), ::1 or localhost.`,
  });
}

/** Checks a listen port: an integer 0..65535, where 0 means any free port. */
function assertPort(port: number): void {
  if (Number.isInteger(port) && port >= 0 && port <= 65535) return;
  throw new ConfigError(msg`Invalid reference server port ${String(port)}.`, {
    hint: msg`Use an integer from 0 to 65535; 0 picks any free port.`,
  });
}

/** Checks that a listing is an array, since it is served as the body's top-level array. */
function assertListing(listing: unknown, origin: string): asserts listing is unknown[] {
  if (Array.isArray(listing)) return;
  throw new ConfigError(msg`${origin}: the listing must be an array of wire elements.`, {
    hint: msg`Pass the parsed JSON array, e.g. from loadListingFile().`,
  });
}

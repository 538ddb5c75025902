/**
 * The bundled reference server: a loopback HTTP server that answers `GET /rest/proto` the way
 * real deployments do, with switches for the ways they fail. The `serve` command, the demo and
 * the network tests all run against it instead of mocking HTTP.
 */

import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../model/errors.js';
import { answerRequest, errorAnswer, recordRequest, type Answer, type RecordedRequest } from './answer.js';
import { deliver } from './deliver.js';
import { assertFault, type Fault } from './fault.js';
import {
  assertListing,
  assertLoopbackHost,
  assertPort,
  DEFAULT_HOST,
  isLoopbackAddress,
  type MutableServerOptions,
  type ReferenceServerOptions,
} from './options.js';

/** A running reference server. */
export interface ReferenceServer {
  /** The base URL, e.g. `http://127.0.0.1:41234`; clients GET `${url}/rest/proto`. */
  readonly url: string;
  /** Every request received, in order of arrival (also 404s, 401s and faulted ones). */
  readonly requests: RecordedRequest[];
  /** Serves another listing from the next request on. */
  setListing(listing: unknown[]): void;
  /** Changes options from the next request on; a key given as `undefined` resets it. */
  setOptions(patch: Partial<MutableServerOptions>): void;
  /**
   * Queues one-shot faults: each request (whatever its path) consumes the next fault; when the
   * queue is empty, normal answers. Throws a TypeError for an invalid fault, queueing none.
   */
  queueFaults(...faults: Fault[]): void;
  /** A fault applied to every request until cleared (undefined clears); queued faults go first. */
  setPersistentFault(fault: Fault | undefined): void;
  /** Stops the server, dropping open connections and pending faults at once. */
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
  const { host = DEFAULT_HOST, port = 0, ...initial } = options;
  assertLoopbackHost(host);
  assertPort(port);
  assertListing(initial.listing, 'startReferenceServer');

  let settings: MutableServerOptions = { ...initial };
  const requests: RecordedRequest[] = [];
  // One-shot faults go first, in order; when none is left, the persistent fault (if any) applies.
  const queuedFaults: Fault[] = [];
  let persistentFault: Fault | undefined;
  // Aborted by close(): cuts short every delay and slow body still in flight.
  const closing = new AbortController();

  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    // No Date header: identical requests get byte-identical answers.
    response.sendDate = false;
    const recorded = recordRequest(request);
    requests.push(recorded);
    const fault = queuedFaults.shift() ?? persistentFault;
    let normal: Answer;
    try {
      normal = answerRequest(recorded, settings);
    } catch (error) {
      // E.g. a listing that cannot be serialised: report it to the client, never crash the host.
      normal = errorAnswer(
        500,
        `reference server cannot answer: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    deliver(response, normal, fault, closing.signal).catch(() => {
      // Closing destroys the socket itself; otherwise a failed delivery must not crash the test
      // process: answer 500 if still possible.
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
    throw new ConfigError(`The reference server cannot listen on ${host}:${port}: ${message}.`, {
      hint: 'Pick another port, or 0 for any free port.',
      cause: error,
    });
  }
  const address = server.address() as AddressInfo;
  if (!isLoopbackAddress(address.address)) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw new ConfigError(`The reference server bound to ${address.address}, which is not loopback; stopped it.`, {
      hint: `Use ${DEFAULT_HOST} as the host.`,
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
    requests,
    setListing(listing) {
      assertListing(listing, 'setListing');
      settings = { ...settings, listing };
    },
    setOptions(patch) {
      if ('listing' in patch) assertListing(patch.listing, 'setOptions');
      settings = { ...settings, ...patch } as MutableServerOptions;
    },
    queueFaults(...faults) {
      faults.forEach(assertFault);
      queuedFaults.push(...faults);
    },
    setPersistentFault(fault) {
      if (fault !== undefined) assertFault(fault);
      persistentFault = fault;
    },
    close,
  };
}

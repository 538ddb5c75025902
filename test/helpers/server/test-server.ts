/**
 * The reference server as the tests run it: the product server (`src/server/`) wrapped through
 * its `deliver` seam, adding what only tests need: faults (`fault.ts`), listing shapes of other
 * deployments (`listing-shape.ts`), a record of every request, and 401s that do not echo the
 * credentials. Network tests run against it instead of mocking HTTP.
 */

import { setTimeout as sleep } from 'node:timers/promises';
import {
  startReferenceServer,
  type Answer,
  type MutableServerOptions,
  type RecordedRequest,
  type ReferenceServerOptions,
} from '../../../src/server/index.js';
import { errorAnswer } from '../../../src/server/answer.js';
import { assertFault, deliver, type Fault, type Wait } from './fault.js';
import { shapeListing, type ListingShape } from './listing-shape.js';

/** What the tests may change while the server runs: the product's options and the test-only ones. */
export interface TestServerSettings extends MutableServerOptions {
  /**
   * Serves the listing as another kind of deployment writes it: an older deployment's fields, or
   * `actions` and key flags in another encoding. Unset: as the listing has them.
   * @example { older: true } or { actions: 'names', flags: 'enum' }
   */
  shape?: ListingShape;
  /**
   * 401 bodies echo the received `apikey` (and `secret`) back, like real servers do, so that
   * clients can be tested for redacting them. @default true
   */
  echoSecretsInErrors?: boolean;
}

/** How a test server starts. */
export interface TestServerOptions extends TestServerSettings, Pick<ReferenceServerOptions, 'host' | 'port'> {
  /**
   * How `delay` and `slowBody` faults wait: `(ms, signal) => Promise`, rejecting when `signal`
   * aborts (the server closes). Tests pass one they control, so they never wait for real time.
   * @default real time
   */
  wait?: Wait;
}

/** A running test server. */
export interface TestServer {
  /** The base URL, e.g. `http://127.0.0.1:41234`; clients GET `${url}/rest/proto`. */
  readonly url: string;
  /** Every request received, in order of arrival (also 404s, 401s and faulted ones). */
  readonly requests: RecordedRequest[];
  /** How many `cmd=getschema` requests {@link requests} holds, by `msgType`. */
  schemaRequests(): Record<string, number>;
  /** Serves another listing (in the current shape) from the next request on. */
  setListing(listing: unknown[]): void;
  /** Changes settings from the next request on; a key given as `undefined` resets it. */
  setOptions(patch: Partial<TestServerSettings>): void;
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
 * Starts the reference server for a test.
 * @example
 * const server = await startTestServer({ listing });
 * server.queueFaults({ kind: 'status', status: 503 });
 */
export async function startTestServer(options: TestServerOptions): Promise<TestServer> {
  const { shape, echoSecretsInErrors = true, wait = realWait, ...product } = options;
  let listing = product.listing;
  let test = { shape, echoSecretsInErrors };
  const requests: RecordedRequest[] = [];
  // One-shot faults go first, in order; when none is left, the persistent fault (if any) applies.
  const queuedFaults: Fault[] = [];
  let persistentFault: Fault | undefined;

  const server = await startReferenceServer({
    ...product,
    listing: shaped(listing, shape),
    deliver: ({ request, answer, response, signal }) => {
      requests.push(request);
      const fault = queuedFaults.shift() ?? persistentFault;
      const normal = test.echoSecretsInErrors ? answer : withoutEcho(answer);
      return deliver(response, normal, fault, signal, wait);
    },
  });

  return {
    url: server.url,
    requests,
    schemaRequests() {
      const counts: Record<string, number> = {};
      for (const { path, query } of requests) {
        const msgType = query['msgType'];
        if (path !== '/rest/proto' || query['cmd'] !== 'getschema' || msgType === undefined) continue;
        counts[msgType] = (counts[msgType] ?? 0) + 1;
      }
      return counts;
    },
    setListing(next) {
      server.setListing(shaped(next, test.shape));
      listing = next;
    },
    setOptions(patch) {
      const { shape: nextShape, echoSecretsInErrors: nextEcho, ...productPatch } = patch;
      const next = {
        shape: 'shape' in patch ? nextShape : test.shape,
        echoSecretsInErrors: 'echoSecretsInErrors' in patch ? (nextEcho ?? true) : test.echoSecretsInErrors,
      };
      const nextListing = 'listing' in patch ? patch.listing : listing;
      // Not an array: the product server refuses it, with its own error.
      if (!Array.isArray(nextListing)) return server.setOptions(productPatch);
      const reshape = 'listing' in patch || 'shape' in patch;
      server.setOptions(reshape ? { ...productPatch, listing: shaped(nextListing, next.shape) } : productPatch);
      listing = nextListing;
      test = next;
    },
    queueFaults(...faults) {
      faults.forEach(assertFault);
      queuedFaults.push(...faults);
    },
    setPersistentFault(fault) {
      if (fault !== undefined) assertFault(fault);
      persistentFault = fault;
    },
    close: () => server.close(),
  };
}

const realWait: Wait = (ms, signal) => sleep(ms, undefined, { signal });

/** The listing as a deployment of `shape` writes it; anything but an array is left for the server to refuse. */
function shaped(listing: unknown[], shape: ListingShape | undefined): unknown[] {
  return Array.isArray(listing) ? shapeListing(listing, shape) : listing;
}

/** A 401 that names the credential it refused without echoing the value received. */
function withoutEcho(answer: Answer): Answer {
  if (answer.status !== 401) return answer;
  const { error } = JSON.parse(answer.body.toString('utf8')) as { error: string };
  const refused = /^invalid (apikey|secret) /.exec(error);
  return refused === null ? answer : errorAnswer(401, `invalid ${refused[1]}`);
}

/**
 * Fault switches: the misbehaviours real deployments of the service show (error statuses, HTML
 * login pages, slow or cut connections, redirects, compressed bodies, odd JSON). The server
 * queues them per request, so a test can say "two failures, then success".
 */

/** One way of (mis)answering a single request. */
export type Fault =
  /** Answer with this status; the body defaults to `{"error":"<status text>"}`. */
  | {
      kind: 'status';
      status: number;
      body?: string;
      /** @default 'application/json' when the body parses as JSON (or is absent), else 'text/plain' */
      contentType?: string;
      /** Sent as the `Retry-After` header: seconds, or an HTTP date. */
      retryAfter?: string | number;
      headers?: Record<string, string>;
    }
  /** Answer with an HTML page, like a login proxy or an error page; status defaults to 200. */
  | { kind: 'html'; status?: number; body?: string }
  /** Wait this long before sending headers, then answer normally. */
  | { kind: 'delay'; ms: number }
  /** Send the headers, then the normal body in `chunks` pieces (default 4), pausing before each. */
  | { kind: 'slowBody'; chunkDelayMs: number; chunks?: number }
  /** Drop the connection: before the headers, or after `afterBytes` bytes of the normal body. */
  | { kind: 'reset'; afterBytes?: number }
  /** Redirect to `location`; status defaults to 302. */
  | { kind: 'redirect'; location: string; status?: number }
  /** Answer normally with the body compressed, whatever the request's `Accept-Encoding`. */
  | { kind: 'gzip' }
  | { kind: 'deflate' }
  | { kind: 'br' }
  /** Answer with this JSON instead of the listing; status defaults to 200. */
  | { kind: 'json'; body: unknown; status?: number };

/**
 * Checks a fault when it is queued, not when a request hits it: a typo should fail the test
 * that wrote it, not surface as a confusing client error later.
 */
export function assertFault(fault: Fault): void {
  const problem = faultProblem(fault);
  if (problem !== undefined) throw new TypeError(`Invalid ${fault.kind} fault: ${problem}.`);
}

function faultProblem(fault: Fault): string | undefined {
  switch (fault.kind) {
    case 'status':
      return statusProblem(fault.status);
    case 'html':
    case 'json':
      return fault.status === undefined ? undefined : statusProblem(fault.status);
    case 'redirect':
      if (fault.location === '') return 'location is empty';
      return fault.status === undefined || (fault.status >= 300 && fault.status <= 399)
        ? undefined
        : `status ${fault.status} is not a 3xx redirect status`;
    case 'delay':
      return countProblem('ms', fault.ms, 0);
    case 'slowBody':
      return countProblem('chunkDelayMs', fault.chunkDelayMs, 0) ?? countProblem('chunks', fault.chunks, 1);
    case 'reset':
      return countProblem('afterBytes', fault.afterBytes, 0);
    case 'gzip':
    case 'deflate':
    case 'br':
      return undefined;
    default:
      return `unknown kind "${String((fault as { kind: unknown }).kind)}"`;
  }
}

function statusProblem(status: number): string | undefined {
  return Number.isInteger(status) && status >= 100 && status <= 599
    ? undefined
    : `status ${status} is not an HTTP status`;
}

function countProblem(name: string, value: number | undefined, min: number): string | undefined {
  if (value === undefined) return undefined;
  return Number.isInteger(value) && value >= min ? undefined : `${name} must be an integer >= ${min}, got ${value}`;
}

import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Agent, Client, EnvHttpProxyAgent, type Dispatcher } from 'undici';
import { ConfigError, NetworkError, ResponseError } from '../model/errors.js';
import { readAtMost, tooLargeError, type ReadBody } from './read-limited.js';
import { quoteString } from '../text/safe-text.js';
import { msg, own } from '../model/message.js';

const decoders: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** Redirects followed before the run gives up, as browsers and curl cap them too. */
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** A response read whole. */
export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  contentType: string;
  /** The body's bytes, decompressed. */
  bytes: Buffer;
  /** The `hashOf` of the body's bytes. */
  hash: string;
}

/** Options of {@link httpGet}. */
export interface GetOptions {
  dispatcher: Dispatcher;
  /** Time for the whole exchange, redirects and body included. */
  timeoutMs: number;
  /** Most bytes of decoded body read before the request is aborted. */
  maxBytes: number;
  /** The request URL as messages show it (credentials redacted). */
  shownUrl: string;
}

/**
 * The dispatcher for one run: proxies from `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY` when set.
 * Redirects are followed by {@link httpGet}, which judges each one. The caller closes it.
 */
export function createDispatcher(env: NodeJS.ProcessEnv, timeoutMs: number): Dispatcher {
  const timeouts = { headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connectTimeout: Math.min(timeoutMs, 10_000) };
  // Read from the given environment (not undici's own look at process.env), so library callers
  // and tests can pass their own.
  const httpProxy = proxyFrom(env, 'HTTP_PROXY');
  const httpsProxy = proxyFrom(env, 'HTTPS_PROXY') ?? httpProxy;
  const noProxy = env['NO_PROXY'] ?? env['no_proxy'] ?? '';
  // '' and not undefined for no HTTP proxy: undici would look at process.env for an undefined one.
  return httpProxy || httpsProxy ? new EnvHttpProxyAgent({ ...timeouts, httpProxy: httpProxy ?? '', httpsProxy, noProxy, clientFactory: proxyClient }) : new Agent(timeouts);
}

/**
 * The proxy URL of `HTTP_PROXY` / `HTTPS_PROXY` (or their lower-case forms), checked: undici
 * would throw its own TypeError for one without a scheme (`proxy.corp:8080`, as some tools accept
 * it) or one that is no URL, which read like a bug in schema-sync.
 * @throws ConfigError naming the variable and the form it takes
 */
function proxyFrom(env: NodeJS.ProcessEnv, name: 'HTTP_PROXY' | 'HTTPS_PROXY'): string | undefined {
  const used = env[name] ? name : env[name.toLowerCase()] ? name.toLowerCase() : undefined;
  if (used === undefined) return undefined;
  const value = env[used]!;
  // The proxy's user and password are never shown: everything up to the last `@` goes (a
  // password may hold `/` or `@`; masking a little more of a broken value costs nothing).
  const shown = value.replace(/^([a-z][a-z0-9+.-]*:\/\/)?.*@/is, '$1***@');
  const hint = msg`Set ${own(used)} to the proxy's URL with its scheme, e.g. http://proxy.example.com:8080 (or unset it).`;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) throw new ConfigError(msg`${own(used)} is "${shown}", which is not a URL: it has no scheme (http://).`, { hint });
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(msg`${own(used)} is "${shown}", which is not a valid URL.`, { hint });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(msg`${own(used)} is "${shown}": schema-sync goes through http:// and https:// proxies only, not ${url.protocol}.`, { hint });
  return value;
}

/**
 * A proxy closed the connection instead of answering CONNECT. undici takes a closed socket for
 * a passing fault and opens another at once, thousands a second, outside any timeout; under
 * this code the request fails, and the run's own retries (counted, spaced) decide what follows.
 */
class ProxyClosedError extends Error {
  readonly code = 'SCHEMA_SYNC_PROXY_CLOSED';
  constructor(cause: unknown) {
    super('the proxy closed the connection instead of answering CONNECT', { cause });
    this.name = 'ProxyClosedError';
  }
}

/**
 * A proxy answered CONNECT with 407: it wants (other) credentials. undici says so in its own
 * words ("Proxy response (407) !== 200 when HTTP Tunneling"), and a retry would get the same.
 * `proxy` is the proxy's origin (scheme, host and port: never its user or password).
 */
export class ProxyAuthenticationError extends Error {
  readonly code = 'SCHEMA_SYNC_PROXY_AUTH';
  constructor(
    readonly proxy: string,
    /** Whether the proxy's URL carried a user and password (sent, and refused). */
    readonly credentialsSent: boolean,
  ) {
    super(`the proxy at ${proxy} wants authentication (HTTP 407)`);
    this.name = 'ProxyAuthenticationError';
  }
}

/** The client of a proxy agent to its proxy (undici's own, but see {@link ProxyClosedError} and {@link ProxyAuthenticationError}). */
function proxyClient(origin: URL, options: object): Dispatcher {
  const client = new Client(origin, options);
  const tunnel = client.connect.bind(client);
  const connect = (connectOptions: Dispatcher.ConnectOptions): Promise<Dispatcher.ConnectData> =>
    tunnel(connectOptions).then(
      (connected) => {
        if (connected.statusCode !== 407) return connected;
        connected.socket.on('error', () => undefined).destroy();
        throw new ProxyAuthenticationError(origin.origin, origin.username !== '' || origin.password !== '');
      },
      (error: unknown) => {
        throw (error as { code?: unknown }).code === 'UND_ERR_SOCKET' ? new ProxyClosedError(error) : error;
      },
    );
  return Object.assign(client, { connect });
}

/**
 * `promise`, or the abort's reason as soon as `signal` aborts: undici does not end a request
 * still waiting for its connection when the signal aborts.
 */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  let stop: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    stop = () => reject(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
  });
  // The request may still fail after the abort won: that is no unhandled rejection.
  promise.catch(() => undefined);
  return Promise.race([promise, aborted]).finally(() => signal.removeEventListener('abort', stop));
}

/**
 * One GET, following up to {@link MAX_REDIRECTS} redirects, body read and decompressed while it
 * streams in. The whole exchange, body included, must finish within `timeoutMs`: undici's own
 * timeouts are per-phase, and a body that trickles in forever would otherwise never time out.
 * What a retry cannot mend (a redirect loop, too many redirects, one to another scheme, a body
 * past `maxBytes` or one that does not decode) is a {@link NetworkError} or {@link ResponseError};
 * a connection that failed is undici's own error, for the caller to retry.
 */
export async function httpGet(url: URL, options: GetOptions): Promise<HttpResponse> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new TimeoutError(options.timeoutMs)), options.timeoutMs);
  try {
    const visited = [url.href];
    for (let at = url; ; ) {
      const response = await untilAborted(
        options.dispatcher.request({
          origin: at.origin,
          path: `${at.pathname}${at.search}`,
          method: 'GET',
          signal: controller.signal,
          headers: { accept: 'application/json', 'accept-encoding': 'gzip, deflate, br', 'user-agent': 'schema-sync' },
        }),
        controller.signal,
      );
      const location = REDIRECT_STATUSES.has(response.statusCode) ? header(response.headers, 'location') : undefined;
      if (location === undefined) {
        return {
          status: response.statusCode,
          headers: response.headers,
          contentType: (header(response.headers, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase(),
          ...(await readBody(response.body, (header(response.headers, 'content-encoding') ?? '').trim().toLowerCase(), options)),
        };
      }
      await response.body.dump();
      at = redirectTarget(at, location, visited, options.shownUrl);
      visited.push(at.href);
    }
  } catch (error) {
    if (controller.signal.aborted && controller.signal.reason instanceof TimeoutError) throw controller.signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Where a redirect from `from` leads, or why schema-sync does not go there. */
function redirectTarget(from: URL, location: string, visited: string[], shownUrl: string): URL {
  const hint = msg`Check --base-url: point it at the address the service answers on (something in front of it sends schema-sync elsewhere).`;
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    throw new NetworkError(msg`${shownUrl}: the service redirected to ${quoteString(location)}, which is not an address.`, { hint });
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new NetworkError(msg`${shownUrl}: the service redirected to ${target.protocol} (${location}); schema-sync follows only http: and https: redirects.`, { hint });
  }
  if (visited.includes(target.href)) {
    throw new NetworkError(msg`${shownUrl}: the service redirected in a loop, back to ${target.href}, where it had already sent schema-sync.`, { hint });
  }
  if (visited.length > MAX_REDIRECTS) {
    throw new NetworkError(msg`too many redirects (more than ${MAX_REDIRECTS}) starting at ${shownUrl}.`, { hint });
  }
  return target;
}

/**
 * The decoded body, at most `maxBytes` of it. A decompressor that fails (not gzip at all, or cut
 * short though the connection delivered every byte it announced) is the answer's fault, and a
 * retry would get the same bytes; a connection that fails mid-body is not.
 */
async function readBody(body: Dispatcher.ResponseData['body'], encoding: string, options: GetOptions): Promise<ReadBody> {
  const decoder = decoderOf(encoding);
  const what = decoder ? msg`the answer, once decompressed (${encoding}),` : msg`the answer`;
  const tooLarge = () => tooLargeError(options.shownUrl, options.maxBytes, what);
  if (!decoder) return readAtMost(body, undefined, options.maxBytes, tooLarge);
  // Whichever fails first caused it; the pipeline then destroys the other with the same error.
  let first: 'body' | 'decoder' | undefined;
  body.once('error', () => (first ??= 'body'));
  for (const step of decoder) step.once('error', () => (first ??= 'decoder'));
  try {
    return await readAtMost(body, decoder, options.maxBytes, tooLarge);
  } catch (error) {
    // Past the limit, the reader stops and destroys the decoder: not the decoder's fault.
    if (first !== 'decoder' || error instanceof ResponseError) throw error;
    const cut = (error as { code?: unknown }).code === 'Z_BUF_ERROR';
    throw new ResponseError(
      msg`${options.shownUrl}: the answer says Content-Encoding: ${encoding}, but its body ${own(cut ? 'ends before the compressed data does' : 'cannot be decompressed')} (${(error as Error).message}).`,
      { hint: msg`The service, or a proxy in front of it, sends a broken compressed body; a retry would get the same. Ask its operators, or check --base-url.` },
    );
  }
}

/**
 * The decompressor of a `Content-Encoding`: one coding, or a list of them (`gzip, gzip`: applied
 * in that order, so undone last first); undefined when the body is as sent (none, `identity`,
 * or a coding schema-sync does not know, which the body's reading then refuses for what it is).
 */
function decoderOf(encoding: string): Transform[] | undefined {
  const codings = encoding.split(',').map((coding) => coding.trim()).filter((coding) => coding !== '' && coding !== 'identity');
  // Own keys only: an encoding named `constructor` is as unknown as any other.
  if (codings.length === 0 || !codings.every((coding) => Object.hasOwn(decoders, coding))) return undefined;
  return codings.reverse().map((coding) => decoders[coding]!());
}

/** The whole exchange took longer than the timeout. */
export class TimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no complete answer within ${timeoutMs} ms`);
    this.name = 'TimeoutError';
  }
}

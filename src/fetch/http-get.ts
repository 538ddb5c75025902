import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import { Agent, EnvHttpProxyAgent, interceptors, type Dispatcher } from 'undici';

const decoders: Record<string, (buffer: Buffer) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

/** A response read whole. */
export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  contentType: string;
  /** The body's bytes, decompressed. */
  bytes: Buffer;
}

/**
 * The dispatcher for one run: proxies from `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY` when set, and
 * up to five redirects followed. The caller closes it.
 */
export function createDispatcher(env: NodeJS.ProcessEnv, timeoutMs: number): Dispatcher {
  const timeouts = { headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connectTimeout: Math.min(timeoutMs, 10_000) };
  // Read from the given environment (not undici's own look at process.env), so library callers
  // and tests can pass their own.
  const httpProxy = env['HTTP_PROXY'] || env['http_proxy'] || undefined;
  const httpsProxy = env['HTTPS_PROXY'] || env['https_proxy'] || httpProxy;
  const noProxy = env['NO_PROXY'] ?? env['no_proxy'] ?? '';
  const base = httpProxy || httpsProxy ? new EnvHttpProxyAgent({ ...timeouts, httpProxy, httpsProxy, noProxy }) : new Agent(timeouts);
  return base.compose(interceptors.redirect({ maxRedirections: 5 }));
}

/**
 * One GET, body read and decompressed. The whole exchange, body included, must finish within
 * `timeoutMs`: undici's own timeouts are per-phase, and a body that trickles in forever would
 * otherwise never time out.
 */
export async function httpGet(url: URL, options: { dispatcher: Dispatcher; timeoutMs: number }): Promise<HttpResponse> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new TimeoutError(options.timeoutMs)), options.timeoutMs);
  try {
    const response = await options.dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      signal: controller.signal,
      headers: { accept: 'application/json', 'accept-encoding': 'gzip, deflate, br', 'user-agent': 'schema-sync' },
    });
    const raw = Buffer.from(await response.body.arrayBuffer());
    const encoding = String(response.headers['content-encoding'] ?? '').trim().toLowerCase();
    const decode = decoders[encoding];
    return {
      status: response.statusCode,
      headers: response.headers,
      contentType: String(response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase(),
      bytes: decode ? await decode(raw) : raw,
    };
  } catch (error) {
    if (controller.signal.aborted && controller.signal.reason instanceof TimeoutError) throw controller.signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** The whole exchange took longer than the timeout. */
export class TimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no complete answer within ${timeoutMs} ms`);
    this.name = 'TimeoutError';
  }
}

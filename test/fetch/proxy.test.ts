import { createServer, request, type Server } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchDescriptors } from '../../src/fetch/index.js';
import { ConfigError, NetworkError } from '../../src/model/errors.js';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { smallListing } from '../helpers/listing.js';

let server: TestServer;
let proxy: Server;
let proxyUrl: string;
const seen: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ listing: smallListing(2) });
  // A minimal forward proxy for plain http: requests arrive in absolute form and are relayed.
  proxy = createServer((req, res) => {
    seen.push(req.url ?? '');
    const target = new URL(req.url ?? '');
    const upstream = request(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  // undici tunnels through the proxy with CONNECT, also for http targets.
  proxy.on('connect', (req, socket, head) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await server.close();
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
});

it('goes through HTTP_PROXY when set', async () => {
  seen.length = 0;
  const result = await fetchDescriptors({ baseUrl: server.url, env: { HTTP_PROXY: proxyUrl }, retries: 0 });
  expect(result.descriptors).toHaveLength(2);
  const target = new URL(server.url);
  // Either form is a request through the proxy: a CONNECT tunnel, or an absolute-form GET.
  expect(seen.length).toBeGreaterThan(0);
  expect([`CONNECT ${target.host}`, `${server.url}/rest/proto`]).toContain(seen[0]);
});

it('bypasses the proxy for hosts in NO_PROXY', async () => {
  seen.length = 0;
  const result = await fetchDescriptors({ baseUrl: server.url, env: { HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' }, retries: 0 });
  expect(result.descriptors).toHaveLength(2);
  expect(seen).toEqual([]);
});

it('reads the proxies from the environment it is given only: an HTTP_PROXY of the process is not used', async () => {
  seen.length = 0;
  const saved = process.env['HTTP_PROXY'];
  process.env['HTTP_PROXY'] = proxyUrl;
  try {
    // Only an HTTPS proxy given: the plain http:// service is reached directly.
    const result = await fetchDescriptors({ baseUrl: server.url, env: { HTTPS_PROXY: 'http://127.0.0.1:9' }, retries: 0 });
    expect(result.descriptors).toHaveLength(2);
    expect(seen).toEqual([]);
  } finally {
    if (saved === undefined) delete process.env['HTTP_PROXY'];
    else process.env['HTTP_PROXY'] = saved;
  }
});

describe('a proxy that closes the connection instead of answering CONNECT (issue 30, item 5)', () => {
  let closing: NetServer;
  let connections = 0;
  beforeAll(async () => {
    closing = createNetServer((socket) => {
      connections++;
      socket.on('error', () => undefined);
      socket.once('data', () => socket.end());
    });
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => closing.close(resolve)));

  it.each([
    [0, 1],
    [2, 3],
  ])('with %i retries fails after %i connections, each one try, and says what the proxy did', async (retries, tries) => {
    connections = 0;
    const env = { HTTPS_PROXY: `http://127.0.0.1:${(closing.address() as AddressInfo).port}` };
    const error = await fetchDescriptors({ baseUrl: 'https://svc.example.test', env, retries, backoff: { baseDelayMs: 1, maxDelayMs: 1 }, timeout: 60_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toBe(
      `could not get https://svc.example.test/rest/proto after ${tries} ${tries === 1 ? 'try' : 'tries'}: the proxy (HTTPS_PROXY/HTTP_PROXY) closed the connection instead of answering CONNECT (SCHEMA_SYNC_PROXY_CLOSED).`,
    );
    // Before: undici opened another connection at once, thousands a second, until the process was killed.
    expect(connections).toBe(tries);
  });
});

describe('a proxy variable that is no usable URL is a CONFIG error, not INTERNAL (issue 30, item 8)', () => {
  it.each([
    [{ HTTPS_PROXY: 'proxy.corp:8080' }, 'HTTPS_PROXY is "proxy.corp:8080", which is not a URL: it has no scheme (http://).'],
    [{ https_proxy: 'user:pa55word@proxy.corp:8080' }, 'https_proxy is "***@proxy.corp:8080", which is not a URL: it has no scheme (http://).'],
    [{ HTTP_PROXY: 'http://[bad' }, 'HTTP_PROXY is "http://[bad", which is not a valid URL.'],
    [{ HTTPS_PROXY: 'http://user:pa55word@proxy corp:80' }, 'HTTPS_PROXY is "http://***@proxy corp:80", which is not a valid URL.'],
    [{ HTTPS_PROXY: 'http://user:pa/55word@proxy corp:80' }, 'HTTPS_PROXY is "http://***@proxy corp:80", which is not a valid URL.'],
    [{ HTTPS_PROXY: 'user:p@55word@proxy.corp:8080' }, 'HTTPS_PROXY is "***@proxy.corp:8080", which is not a URL: it has no scheme (http://).'],
    [{ HTTPS_PROXY: 'ftp://proxy.corp:21' }, 'HTTPS_PROXY is "ftp://proxy.corp:21": schema-sync goes through http:// and https:// proxies only, not ftp:.'],
  ])('%o', async (env, message) => {
    const error = await fetchDescriptors({ baseUrl: 'https://svc.example.test', env, retries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(message);
    expect((error as ConfigError).hint).toMatch(/to the proxy's URL with its scheme, e\.g\. http:\/\/proxy\.example\.com:8080/);
    expect(`${(error as ConfigError).message} ${(error as ConfigError).hint}`).not.toMatch(/pa\/?55word|p@55word/);
  });
});

describe('a proxy that wants authentication (407) is told in schema-sync words (issue 42, item 16)', () => {
  let asking: NetServer;
  let connects = 0;
  const authorizations: (string | undefined)[] = [];
  beforeAll(async () => {
    // Answers every CONNECT with 407, as a corporate proxy does to a request without (valid) credentials.
    asking = createNetServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', (head) => {
        connects++;
        authorizations.push(/^proxy-authorization: *(.*)$/im.exec(head.toString('latin1'))?.[1]?.trim());
        socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="corp"\r\nContent-Length: 0\r\n\r\n');
      });
    });
    await new Promise<void>((resolve) => asking.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => asking.close(resolve)));

  it.each([
    ['without credentials', '', "Put the user and password in HTTPS_PROXY / HTTP_PROXY as http://user:password@host:port (special characters percent-encoded), or ask the proxy's admin for access without them."],
    [
      'with a user and password it refuses',
      'jdoe:pr0xy-Pa55@',
      "It refused the user and password it was given: check the user and password in HTTPS_PROXY / HTTP_PROXY (http://user:password@host:port, special characters percent-encoded), or ask the proxy's admin.",
    ],
  ])('%s: fails at once (no retry), names the proxy without its credentials, and says what to do', async (_, credentials, hint) => {
    connects = 0;
    authorizations.length = 0;
    const port = (asking.address() as AddressInfo).port;
    const env = { HTTPS_PROXY: `http://${credentials}127.0.0.1:${port}` };
    const error = await fetchDescriptors({ baseUrl: 'https://svc.example.test', apiKey: 'k3y-Secret-Value', env, retries: 3, backoff: { baseDelayMs: 1, maxDelayMs: 1 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    const { message, hint: given } = error as NetworkError;
    expect(message).toBe(`the proxy at http://127.0.0.1:${port} wants authentication: it answered HTTP 407 Proxy Authentication Required to the request for https://svc.example.test/rest/proto?apikey=***.`);
    expect(`${given}`).toBe(hint);
    expect(`${message} ${given}`).not.toMatch(/pr0xy-Pa55|jdoe|k3y-Secret|Tunneling|!==/);
    // The credentials went to the proxy, as given; a 407 is not retried: the next try would get the same.
    expect(authorizations).toEqual([credentials === '' ? undefined : `Basic ${Buffer.from('jdoe:pr0xy-Pa55').toString('base64')}`]);
    expect(connects).toBe(1);
  });
});

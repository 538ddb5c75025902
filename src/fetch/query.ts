import type { Settings } from '../config/settings.js';
import { ConfigError } from '../model/errors.js';
import { kebab } from '../util/case.js';
import { joinMessages, messageText, msg, own } from '../model/message.js';

/**
 * Query parameters of `GET {base_url}/rest/proto` (the settings table's rows of the same names);
 * every one is optional and sent only when set.
 */
export type ListingQuery = Pick<Settings, 'cmd' | 'msgType' | 'pkey' | 'limit' | 'view' | 'where' | 'order'>;

/** Credentials: from flags or `SCHEMA_SYNC_API_KEY` / `SCHEMA_SYNC_SECRET` only, never from a file. */
export type Credentials = Pick<Settings, 'apiKey' | 'secret'>;

/** The non-secret query parameters, in the order they are sent. */
const QUERY_KEYS = ['cmd', 'msgType', 'pkey', 'limit', 'view', 'where', 'order'] as const;

/** The most descriptors one request may ask for. */
const MAX_LIMIT = 10_000;

/** Checks `limit` before any request is made: an integer 1..10000. */
export function validateLimit(limit: unknown): number | undefined {
  if (limit === undefined) return undefined;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new ConfigError(msg`limit must be an integer from 1 to ${MAX_LIMIT}, got ${JSON.stringify(limit)}.`, {
      hint: msg`Pass --limit with a whole number between 1 and ${MAX_LIMIT}, or leave it out to get every message type.`,
    });
  }
  return limit;
}

/** The query as strings, without unset values: what the lockfile records as `source.query`. */
export function publicQuery(query: ListingQuery): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of QUERY_KEYS) {
    const value = query[key];
    if (value !== undefined && value !== '') out[key] = String(value);
  }
  return out;
}

/** What to use instead of each query parameter a copied request URL may carry. */
const INSTEAD: Readonly<Record<string, string>> = {
  ...Object.fromEntries(QUERY_KEYS.map((key) => [key, `--${kebab(key)}`])),
  apikey: 'SCHEMA_SYNC_API_KEY (or --api-key)',
  secret: 'SCHEMA_SYNC_SECRET (or --secret)',
};

/**
 * A base URL with a query or user info, as service users copy a whole request URL, is refused:
 * schema-sync builds the query itself, so dropping them would lose a key in silence (a 401 later).
 * The message names the parameters, never their values.
 */
function refuseExtras(url: URL): void {
  const shown = `${url.origin}${url.pathname}`;
  if (url.username !== '' || url.password !== '') {
    throw new ConfigError(msg`base URL ${JSON.stringify(shown)} has user info (user:password@) that schema-sync does not send.`, {
      hint: msg`Pass --base-url ${JSON.stringify(shown)}, and ${own(INSTEAD['apikey']!)} and ${own(INSTEAD['secret']!)} for the credentials.`,
    });
  }
  if (url.search === '' || url.search === '?') return;
  // A name that does not look like one may be a value pasted in its place: not shown.
  const names = [...new Set(url.searchParams.keys())].map((name) => (/^[A-Za-z][\w.-]{0,39}$/.test(name) ? msg`${name}` : own('(a parameter not shown)')));
  const uses = names.map((name) => {
    const key = Object.keys(INSTEAD).find((known) => known.toLowerCase() === messageText(name).toLowerCase());
    return key === undefined ? msg`${name} is no parameter schema-sync knows` : msg`${own(INSTEAD[key]!)} for ${name}`;
  });
  throw new ConfigError(msg`base URL ${JSON.stringify(shown)} has a query (${joinMessages(names, ', ')}) that schema-sync does not send: it builds the query itself.`, {
    hint: msg`Pass --base-url ${JSON.stringify(shown)} (/rest/proto is added), and ${joinMessages(uses, '; ')}.`,
  });
}

/**
 * Checks a base URL and strips what is never sent: a fragment, and a trailing `/rest/proto`.
 * Throws a {@link ConfigError} for anything that is not an http(s) URL, and for one with a query
 * or user info.
 */
function normaliseBaseUrl(baseUrl: string): URL {
  if (!URL.canParse(baseUrl)) {
    // Without `user:pass@`, query and fragment: the text does not parse, so no redactor knows
    // which part is a credential (a key pasted as ?apikey=… is not among the run's secrets).
    const shown = baseUrl.replace(/[?#].*$/s, '').replace(/\/\/[^/@]*@/, '//');
    throw new ConfigError(msg`base URL ${JSON.stringify(shown)}${own(shown === baseUrl ? '' : ' (query and credentials not shown)')} is not a valid URL.`, {
      hint: msg`Pass --base-url like https://schemas.example.com (the service path /rest/proto is added).`,
    });
  }
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(msg`base URL must use http or https, got ${url.protocol}`, {
      hint: msg`Pass --base-url like https://schemas.example.com.`,
    });
  }
  refuseExtras(url);
  url.search = '';
  url.hash = '';
  url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/rest\/proto$/, '').replace(/\/+$/, '');
  return url;
}

/** The base URL as recorded and shown: no credentials, no trailing slash. */
export function displayBaseUrl(baseUrl: string): string {
  return normaliseBaseUrl(baseUrl).toString().replace(/\/+$/, '');
}

/** The full request URL with every set parameter, credentials last. */
export function buildRequestUrl(baseUrl: string, query: ListingQuery, credentials: Credentials): URL {
  const url = normaliseBaseUrl(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/rest/proto`;
  for (const [key, value] of Object.entries(publicQuery(query))) url.searchParams.set(key, value);
  if (credentials.apiKey) url.searchParams.set('apikey', credentials.apiKey);
  if (credentials.secret) url.searchParams.set('secret', credentials.secret);
  return url;
}

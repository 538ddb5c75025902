import { ConfigError } from '../model/errors.js';

/** Query parameters of `GET {base_url}/rest/proto`; every one is optional and sent only when set. */
export interface ListingQuery {
  /** Command, typically `getmsgtypes`. */
  cmd?: string;
  /** Narrow to one message type, by name or number. */
  msgType?: string;
  /** Primary-key filter. */
  pkey?: string;
  /** Most descriptors to return: an integer 1..10000. */
  limit?: number;
  /** Server-side view name. */
  view?: string;
  /** Filter expression, e.g. `mToken:ne:SystemData`. */
  where?: string;
  /** Sort order expression. */
  order?: string;
}

/** Credentials: from flags or `SCHEMA_SYNC_API_KEY` / `SCHEMA_SYNC_SECRET` only, never from a file. */
export interface Credentials {
  apiKey?: string;
  secret?: string;
}

/** The non-secret query parameters, in the order they are sent. */
const QUERY_KEYS = ['cmd', 'msgType', 'pkey', 'limit', 'view', 'where', 'order'] as const;

/** The most descriptors one request may ask for. */
const MAX_LIMIT = 10_000;

/** Checks `limit` before any request is made: an integer 1..10000. */
export function validateLimit(limit: unknown): number | undefined {
  if (limit === undefined) return undefined;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new ConfigError(`limit must be an integer from 1 to ${MAX_LIMIT}, got ${JSON.stringify(limit)}.`, {
      hint: `Pass --limit with a whole number between 1 and ${MAX_LIMIT}, or leave it out to get every message type.`,
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

/**
 * Checks a base URL and strips what must never be recorded: user info, query and fragment.
 * Throws a {@link ConfigError} for anything that is not an http(s) URL.
 */
function normaliseBaseUrl(baseUrl: string): URL {
  if (!URL.canParse(baseUrl)) {
    // Without `user:pass@`, query and fragment: the text does not parse, so no redactor knows
    // which part is a credential (a key pasted as ?apikey=… is not among the run's secrets).
    const shown = baseUrl.replace(/[?#].*$/s, '').replace(/\/\/[^/@]*@/, '//');
    throw new ConfigError(`base URL ${JSON.stringify(shown)}${shown === baseUrl ? '' : ' (query and credentials not shown)'} is not a valid URL.`, {
      hint: 'Pass --base-url like https://schemas.example.com (the service path /rest/proto is added).',
    });
  }
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`base URL must use http or https, got ${url.protocol}`, {
      hint: 'Pass --base-url like https://schemas.example.com.',
    });
  }
  url.username = '';
  url.password = '';
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

import { describe, expect, it } from 'vitest';
import { buildRequestUrl, displayBaseUrl } from '../../src/fetch/query.js';
import { ConfigError } from '../../src/model/errors.js';

describe('a base URL that does not parse', () => {
  it('is named without user info, query or fragment: a key pasted into it is never shown', () => {
    let error: unknown;
    try {
      displayBaseUrl('https://user:pw@schemas example.com/x?apikey=k3y-123&secret=s3cr3t#frag');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const text = `${(error as ConfigError).message} ${(error as ConfigError).hint ?? ''}`;
    expect(text).toContain('"https://schemas example.com/x" (query and credentials not shown) is not a valid URL.');
    for (const secret of ['k3y-123', 's3cr3t', 'pw', 'frag']) expect(text).not.toContain(secret);
  });
});

function refusal(baseUrl: string): ConfigError {
  try {
    buildRequestUrl(baseUrl, {}, {});
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('a base URL with a query or user info', () => {
  // Service users copy the whole request URL; dropping its query silently leads to a 401.
  it.each<[string, string, string[]]>([
    [
      'https://schemas.example.com/rest/proto?cmd=getmsgtypes&apikey=k3y-123',
      'base URL "https://schemas.example.com/rest/proto" has a query (cmd, apikey) that schema-sync does not send: it builds the query itself.',
      ['--cmd for cmd', 'SCHEMA_SYNC_API_KEY (or --api-key) for apikey'],
    ],
    [
      'https://svc:s3cr3t@schemas.example.com',
      'base URL "https://schemas.example.com/" has user info (user:password@) that schema-sync does not send.',
      ['SCHEMA_SYNC_API_KEY (or --api-key) and SCHEMA_SYNC_SECRET (or --secret) for the credentials'],
    ],
    [
      'https://schemas.example.com/?msgType=Order&secret=s3cr3t&foo=1',
      'base URL "https://schemas.example.com/" has a query (msgType, secret, foo) that schema-sync does not send: it builds the query itself.',
      ['--msg-type for msgType', 'SCHEMA_SYNC_SECRET (or --secret) for secret', 'foo is no parameter schema-sync knows'],
    ],
  ])('is refused, naming the parameters (never their values) and what to use: %s', (baseUrl, message, hints) => {
    const error = refusal(baseUrl);
    expect(error.message).toBe(message);
    for (const hint of hints) expect(error.hint).toContain(hint);
    for (const secret of ['k3y-123', 's3cr3t', 'getmsgtypes', 'Order']) expect(`${error.message} ${error.hint}`).not.toContain(secret);
  });

  it('a fragment, never sent, and a trailing /rest/proto are still dropped quietly', () => {
    expect(displayBaseUrl('https://schemas.example.com/svc/rest/proto/#top')).toBe('https://schemas.example.com/svc');
  });
});

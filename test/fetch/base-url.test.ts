import { describe, expect, it } from 'vitest';
import { displayBaseUrl } from '../../src/fetch/query.js';
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

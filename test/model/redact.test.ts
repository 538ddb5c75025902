/**
 * The redactor: a secret of 6 characters or more wherever it occurs, also run together with
 * letters or digits and in a listing's data; a shorter one only where it stands on its own in a
 * text, so ordinary words are never mangled.
 */
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/model/redact.js';

describe('createRedactor', () => {
  it('masks a secret of 8 characters or more wherever it occurs, in every encoding', () => {
    const key = 'k3yABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    const redact = createRedactor([key, 'p@ss word/1']);
    expect(redact(`xk3yABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789z and key:${key}.`)).toBe('x***z and key:***.');
    expect(redact(`secret=${encodeURIComponent('p@ss word/1')}&s=p%40ss+word%2F1 "p@ss word/1"`)).toBe('secret=***&s=*** "***"');
  });

  it('masks a short secret only where it stands on its own', () => {
    const redact = createRedactor(['k', 'key-7']);
    expect(redact('Breaking change: apikey=k, key-7 and key-7x')).toBe('Breaking change: apikey=***, *** and key-7x');
  });

  it('one length policy: from 6 characters a secret is masked anywhere, in texts and in data alike', () => {
    const redact = createRedactor(['abc123', 'k']);
    expect(redact('xabc123y, abc123 and k')).toBe('x***y, *** and ***');
    expect(redact.data?.('xabc123y, abc123 and k')).toBe('x***y, *** and k');
    expect(createRedactor(['abc12']).data).toBeUndefined();
    expect(createRedactor(['abc12'])('xabc12 abc12')).toBe('xabc12 ***');
  });

  it('masks nothing without secrets', () => {
    expect(createRedactor([undefined, '']) ('apikey=k')).toBe('apikey=k');
  });
});

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

  /** A secret with every character an encoding writes differently, and each echo of it a server may send. */
  const SECRET = "p+s/K&y'<\"1 é";
  const ECHOES: [encoding: string, echo: string][] = [
    ['as is', SECRET],
    ['encodeURIComponent', 'p%2Bs%2FK%26y\'%3C%221%20%C3%A9'],
    ['lower-case percent-encoding', 'p%2bs%2fK%26y\'%3c%221%20%c3%a9'],
    ['mixed-case percent-encoding', 'p%2bs%2FK%26y\'%3C%221%20%c3%A9'],
    ['a form (space as +)', 'p%2Bs%2FK%26y%27%3C%221+%C3%A9'],
    ['percent-encoding that keeps /', 'p%2Bs/K%26y\'%3C%221%20%C3%A9'],
    ['lower-case, keeping /', 'p%2bs/K%26y\'%3c%221%20%c3%a9'],
    ['encodeURI', 'p+s/K&y\'%3C%221%20%C3%A9'],
    ['every special character encoded', 'p%2Bs%2FK%26y%27%3C%221%20%C3%A9'],
    ['HTML with named entities', 'p+s/K&amp;y&#39;&lt;&quot;1 é'],
    ['HTML, apostrophe as &#x27;', 'p+s/K&amp;y&#x27;&lt;&quot;1 é'],
    ['HTML, apostrophe as &apos;', 'p+s/K&amp;y&apos;&lt;&quot;1 é'],
    ['HTML with decimal entities', 'p&#43;s&#47;K&#38;y&#39;&#60;&#34;1&#32;&#233;'],
    ['HTML with hex entities, either case', 'p&#x2B;s&#x2f;K&#X26;y&#x27;&#x3c;&#x22;1&#x20;&#xE9;'],
    ['HTML, decimal and hex entities mixed', 'p&#43;s/K&#x26;y&apos;&LT;&quot;1 &#xe9;'.replace('&LT;', '&lt;')],
    ['JSON', 'p+s/K&y\'<\\"1 é'],
    ['JSON with \\/', 'p+s\\/K&y\'<\\"1 é'],
    ['JSON with \\u00XX for <>&\'', 'p+s/K\\u0026y\\u0027\\u003c\\"1 é'],
    ['base64', Buffer.from(SECRET).toString('base64').replace(/=+$/, '')],
    ['base64url', Buffer.from(SECRET).toString('base64url')],
  ];

  it.each(ECHOES)('masks a secret echoed %s, anywhere and in data', (_encoding, echo) => {
    const redact = createRedactor([SECRET]);
    expect(redact(`key=${echo}&x and x${echo}y`)).toBe('key=***&x and x***y');
    expect(redact.data?.(`desc ${echo}`)).toBe('desc ***');
  });

  it('masks a 7-character key run together with letters in a desc', () => {
    expect(createRedactor(['Ab3dE7g']).data?.('see xyzAb3dE7gabc and Ab3dE7gq')).toBe('see xyz***abc and ***q');
  });

  it('takes a secret that no encoding can write whole (a lone surrogate)', () => {
    expect(createRedactor(['ab\uD800cdef'])('x ab\uD800cdef y')).toBe('x *** y');
  });

  /** Issue 42 item 5: encodings that escape every character, and base64 of a longer text holding the secret. */
  const KEY = 'Zk8pQ2rT';
  const SECRET2 = 's3cr3t-V4lue';
  const every = (text: string, one: (code: number) => string) => [...text].map((char) => one(char.codePointAt(0)!)).join('');
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  const WHOLE: [encoding: string, echo: string][] = [
    ['%XX for every byte', every(KEY, (c) => `%${c.toString(16).toUpperCase()}`)],
    ['%xx for every byte, lower case', every(KEY, (c) => `%${c.toString(16)}`)],
    ['&#NN; for every character', every(KEY, (c) => `&#${c};`)],
    ['&#xNN; for every character', every(KEY, (c) => `&#x${c.toString(16)};`)],
    ['\\uXXXX for every character', every(KEY, (c) => `\\u${c.toString(16).padStart(4, '0')}`)],
    ['decimal, hex, percent and JSON mixed', `&#90;&#x6b;%38\\u0070Q2rT`],
  ];
  it.each(WHOLE)('masks a secret written as %s', (_encoding, echo) => {
    const redact = createRedactor([KEY, SECRET2]);
    expect(redact(`key=${echo}; next`)).toBe('key=***; next');
    expect(redact.data?.(`desc ${echo}.`)).toBe('desc ***.');
  });

  const LONGER: [what: string, text: string][] = [
    ['HTTP Basic key:secret', `Basic ${b64(`${KEY}:${SECRET2}`)}`],
    ['HTTP Basic user:key', `Basic ${b64(`user:${KEY}`)}`],
    ['HTTP Basic u:key (another alignment)', `Basic ${b64(`u:${KEY}`)}`],
    ['HTTP Basic us:key (the third alignment)', `Basic ${b64(`us:${KEY}`)}`],
    ['base64 of a JSON holding it', b64(JSON.stringify({ apikey: KEY, note: 'x' }))],
    ['base64url of a JSON holding the secret', Buffer.from(JSON.stringify({ user: 'me', secret: SECRET2 })).toString('base64url')],
  ];
  it.each(LONGER)('masks the secrets inside base64: %s', (_what, text) => {
    const redact = createRedactor([KEY, SECRET2]);
    const masked = redact(text);
    expect(masked).toContain('***');
    // What is left decodes to no secret, at any alignment.
    for (const piece of masked.split('***')) {
      for (let cut = 0; cut < 4; cut++) {
        for (const alphabet of ['base64', 'base64url'] as const) {
          const decoded = Buffer.from(piece.replace(/^Basic /, '').slice(cut), alphabet).toString('latin1');
          expect(decoded).not.toContain(KEY);
          expect(decoded).not.toContain(SECRET2);
        }
      }
    }
  });

  it('masking decoded text leaves ordinary words and other escapes alone', () => {
    const redact = createRedactor(['types', 'Zk8pQ2rT']);
    const text = 'Breaking types: &amp; %41 \\u0041 A&B 100% &#65; prototypes types';
    expect(redact(text)).toBe('Breaking ***: &amp; %41 \\u0041 A&B 100% &#65; prototypes ***');
    expect(redact.data?.('Q2rT and Zk8p are halves')).toBe('Q2rT and Zk8p are halves');
  });

  it('masks nothing without secrets', () => {
    expect(createRedactor([undefined, '']) ('apikey=k')).toBe('apikey=k');
  });
});

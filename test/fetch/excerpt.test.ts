/** The excerpt of a body in error messages: redacted, one line, cut; it reads only the start of a long body. */
import { describe, expect, it } from 'vitest';
import { excerpt } from '../../src/fetch/answer-body.js';
import { createRedactor } from '../../src/model/redact.js';

const SECRET = 'k3y-s3cr3t-value';
const redact = createRedactor([SECRET]);

describe('excerpt', () => {
  it('redacts, folds white space and cuts at 160 characters, from text or bytes', () => {
    const body = `<html>\n  <p>bad key ${SECRET}</p>\n${'x'.repeat(400)}`;
    for (const input of [body, Buffer.from(body)]) {
      const text = excerpt(input, redact);
      expect(text).toHaveLength(160);
      expect(text.startsWith('<html> <p>bad key ***</p> xxx')).toBe(true);
      expect(text.endsWith('…')).toBe(true);
    }
    expect(excerpt(' short \n body ', redact)).toBe('short body');
  });

  it('a body longer than it reads: the start is shown, and a secret cut where reading stops is not', () => {
    expect(excerpt(Buffer.from(`start ${SECRET} ${'y'.repeat(1 << 20)}`), redact).startsWith('start *** yyy')).toBe(true);
    // Nothing but white space before the secret: the part of it that was read must not show.
    for (let at = 64 * 1024 - SECRET.length; at < 64 * 1024 + 2; at++) {
      const text = excerpt(Buffer.from(`${' '.repeat(at)}${SECRET}${' '.repeat(2048)}`), redact);
      expect(text).not.toMatch(/k3y|s3cr3t|value/);
    }
  });
});

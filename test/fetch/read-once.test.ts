import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { listingResponse } from '../../src/fetch/listing-response.js';
import { readAtMost, readFileAtMost } from '../../src/fetch/read-limited.js';
import { commitTransaction } from '../../src/write/journal.js';
import { createRedactor } from '../../src/model/redact.js';
import { serializeLockfileEntries } from '../../src/lock/serialize.js';
import { hashOf } from '../../src/util/hash.js';
import { LOCKFILE_VERSION } from '../../src/model/lockfile.js';
import { makeDescriptor } from '../../src/model/descriptor.js';
import { smallListing } from '../helpers/listing.js';

/** A body is read once: known by its hash, parsed once. */
describe('a body read once', () => {
  it('readAtMost reads the bytes in any chunking, hashed as hashOf hashes them whole', async () => {
    const text = JSON.stringify(smallListing(5));
    for (const size of [1, 7, 64, text.length]) {
      const pieces = Array.from({ length: Math.ceil(text.length / size) }, (_, i) => Buffer.from(text.slice(i * size, (i + 1) * size)));
      const body = await readAtMost(Readable.from(pieces), undefined, 1 << 20, () => new Error('too large'));
      expect(body.bytes.toString('utf8')).toBe(text);
      expect(body.hash).toBe(hashOf(text));
    }
  });

  it('readFileAtMost reads a file whole, refuses one past the limit by its size, and streams what is no file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'schema-sync-read-'));
    try {
      const file = join(dir, 'listing.json');
      const text = JSON.stringify(smallListing(3));
      writeFileSync(file, text);
      const tooLarge = () => new Error('too large');
      const read = await readFileAtMost(file, text.length, tooLarge);
      expect({ bytes: read.bytes, hash: read.hash }).toEqual({ bytes: Buffer.from(text), hash: hashOf(text) });
      await expect(readFileAtMost(file, text.length - 1, tooLarge)).rejects.toThrow('too large');
      if (existsSync('/dev/zero')) await expect(readFileAtMost('/dev/zero', 1 << 16, tooLarge)).rejects.toThrow('too large');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a large text is hashed in pieces, as its bytes are hashed whole, a surrogate pair across a cut included', () => {
    const text = `${'a'.repeat((1 << 20) - 1)}😀b😀${'ü'.repeat(1 << 20)}`;
    expect(hashOf(text)).toBe(hashOf(Buffer.from(text, 'utf8')));
  });

  it('a lockfile is written whole, a surrogate pair across any cut included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'schema-sync-write-'));
    try {
      // A pair across the first piece's end (2^20 characters), and one right after it.
      const text = `${'a'.repeat((1 << 20) - 1)}😀b😀${'c'.repeat(100)}\n`;
      const lockfilePath = join(dir, 'schema-sync.lock.json');
      await commitTransaction(join(dir, 'out'), { writes: [], deletes: [], lockfile: { path: lockfilePath, text }, lockfilePath });
      expect(readFileSync(lockfilePath, 'utf8')).toBe(text);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['a listing', JSON.stringify(smallListing(2)), 'false T0000 T0001'],
    ['a body that is not JSON', '[{"header": ', 'not JSON'],
  ])('parse() of %s, asked again, gives the same outcome', (_, text, expected) => {
    const response = listingResponse({
      source: { query: {} },
      identity: { bodyHash: hashOf(text), contentType: '', limit: undefined, allowTruncated: false },
      body: Buffer.from(text),
      origin: 'listing.json',
      redact: createRedactor(['key-123456']),
    });
    const outcome = () => {
      try {
        return `${response.echoesSecrets()} ${response.parse().descriptors.map((d) => d.name).join(' ')}`;
      } catch (error) {
        return (error as Error).message;
      }
    };
    const first = outcome();
    expect(first).toContain(expected);
    expect(outcome()).toBe(first);
  });

  it('the lockfile entries are the very text of each entry within the lockfile', () => {
    const messages = ['T0', 'Tü', 'T—2'].map((name, i) => makeDescriptor({ name, mNum: i + 1, schemaHash: 'AB' }, { desc: 'ünïcode — text\u2028' }));
    const { text, entries } = serializeLockfileEntries({ lockfileVersion: LOCKFILE_VERSION, source: { query: {} }, settings: {}, messages });
    for (const [name, entry] of entries) expect(text).toContain(`    ${JSON.stringify(name)}: ${entry}`);
    expect(entries.size).toBe(3);
  });
});

/**
 * The spill file a run keeps a lockfile's text in: it gives back every entry and the whole text
 * exactly, whatever the characters and the order of reading, leaves nothing in the temporary
 * folder, and where none can be made the lockfile is held as before.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LockfileText } from '../../src/lock/lockfile-text.js';
import { serializeLockfile } from '../../src/lock/serialize.js';
import { SpillFile, type EntrySpans } from '../../src/lock/spill-file.js';
import { LOCKFILE_VERSION, type Lockfile } from '../../src/model/lockfile.js';

const MIB = 1024 * 1024;

/** A piece of entries of the given texts, one after another with a comma between, and where each lies. */
function piece(texts: readonly string[], first = 0): { piece: string; spans: EntrySpans } {
  const spans: Array<[string, number, number]> = [];
  let at = 0;
  for (const [i, text] of texts.entries()) {
    spans.push([`T${first + i}`, at, at + text.length]);
    at += text.length + 1;
  }
  return { piece: texts.join(','), spans };
}

let tmp: string | undefined;
const savedTmpdir = process.env['TMPDIR'];
afterEach(() => {
  if (savedTmpdir === undefined) delete process.env['TMPDIR'];
  else process.env['TMPDIR'] = savedTmpdir;
  if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
  tmp = undefined;
});

describe('SpillFile', () => {
  it('gives each entry and the text back exactly: characters of several bytes, a character across a read, entries larger than a read, any order', () => {
    // A four-byte character across the first 1 MiB read, entries of 1.5 MiB, ASCII pieces too.
    const texts = [`${'a'.repeat(MIB - 2)}😀b`, `é${'ü😀'.repeat(MIB / 2)}`, 'plain', '€', `${'x'.repeat(3 * MIB)}`, '😀'];
    const pieces = [piece(texts.slice(0, 3)), piece(['ascii only', 'here'], 3), piece(texts.slice(3), 5)];
    const spill = SpillFile.create()!;
    expect(spill).toBeDefined();
    for (const { piece: text, spans } of pieces) spill.append(text, spans);
    expect([...spill].join('')).toBe(pieces.map((p) => p.piece).join(''));
    const expected = new Map(pieces.flatMap(({ piece: text, spans }) => spans.map(([name, start, end]) => [name, text.slice(start, end)] as const)));
    const entries = spill.entries();
    expect(entries.size).toBe(expected.size);
    const names = [...expected.keys()];
    // In order, backwards, and jumping about: each read finds its entry in the window or reads anew.
    for (const order of [names, [...names].reverse(), [names[4]!, names[0]!, names[7]!, names[1]!, names[4]!, names[2]!]]) {
      for (const name of order) expect(entries.get(name), name).toBe(expected.get(name));
    }
    expect(entries.get('no such type')).toBeUndefined();
    expect(new Map(entries)).toEqual(expected);
  });

  it('leaves nothing in the temporary folder, and is not made where that folder cannot be written', () => {
    tmp = mkdtempSync(join(tmpdir(), 'schema-sync-spill-test-'));
    process.env['TMPDIR'] = tmp;
    const spill = SpillFile.create()!;
    spill.append('{"a": 1}', [['A', 0, 8]]);
    expect(readdirSync(tmp)).toEqual([]);
    expect(spill.entries().get('A')).toBe('{"a": 1}');
    process.env['TMPDIR'] = join(tmp, 'missing');
    expect(SpillFile.create()).toBeUndefined();
  });
});

describe('LockfileText.of', () => {
  const entries = (count: number) => Array.from({ length: count }, (_, i) => ({ name: `Type${String(i).padStart(4, '0')}`, mNum: i, schemaHash: 'H', extra: { desc: 'd'.repeat(250) } }));
  const lockOf = (count: number, settings: Lockfile['settings'] = {}): Lockfile => ({ lockfileVersion: LOCKFILE_VERSION, source: { query: {} }, settings, messages: entries(count) });
  const spilled = (lock: Lockfile) => LockfileText.of(lock, 'lock', { spillChars: 20_000, pieceChars: 2_000 }).pieces() instanceof SpillFile;

  it('spills a lockfile its first piece foretells past the limit, and holds a smaller one, however long its head', () => {
    expect(spilled(lockOf(100))).toBe(true);
    expect(spilled(lockOf(10))).toBe(false);
    // A package's changelog is in the head, which the first piece holds: counted once, not a type.
    expect(spilled(lockOf(10, { packageName: '@acme/schema', changelog: [{ version: '1.1.0', notes: 'n'.repeat(15_000) }] }))).toBe(false);
    expect(spilled(lockOf(0))).toBe(false);
  });
});

describe('LockfileText.of without a spill file', () => {
  it('holds the text, the same bytes and contents as a spilled one', () => {
    const lock: Lockfile = { lockfileVersion: LOCKFILE_VERSION, source: { query: {} }, settings: {}, messages: [{ name: 'A', mNum: 1, schemaHash: 'H', extra: { desc: 'é😀' } }] };
    const spilled = LockfileText.of(structuredClone(lock), 'lock', { spillChars: 0 });
    tmp = mkdtempSync(join(tmpdir(), 'schema-sync-spill-test-'));
    process.env['TMPDIR'] = join(tmp, 'missing');
    const held = LockfileText.of(structuredClone(lock), 'lock', { spillChars: 0 });
    expect(held.text).toBe(serializeLockfile(lock));
    expect(spilled.text).toBe(held.text);
    expect(held.hash).toBe(spilled.hash);
    expect(held.parse()).toEqual(spilled.parse());
  });
});

/**
 * The lockfile serialiser writes entries by hand for speed; its bytes must be those of the
 * generic `stableStringify` of the same content, for any names, values and unknown fields.
 */
import fc from 'fast-check';
import { settingsRecord } from '../../src/lock/settings-record.js';
import { describe, expect, it } from 'vitest';
import { LockfileText } from '../../src/lock/lockfile-text.js';
import { parseLockfile } from '../../src/lock/parse.js';
import { serializeLockfile, serializeLockfileEntries, stableStringify } from '../../src/lock/serialize.js';
import { fieldEntry } from '../../src/lock/fields.js';
import { compareStrings, type Descriptor } from '../../src/model/descriptor.js';
import type { Lockfile } from '../../src/model/lockfile.js';
import { lockfile } from './arbitraries.js';
import { jsonText } from '../../src/text/safe-text.js';

/** The lockfile as the generic printer writes it: known fields in fixed order, unknown ones sorted. */
function generic(lock: Lockfile): string {
  const entry = (d: Descriptor) =>
    new Map<string, unknown>([
      ['mNum', d.mNum],
      ['schemaHash', d.schemaHash],
      ['actions', d.actions],
      ['hasTKey', d.hasTKey],
      ['hasEKey', d.hasEKey],
      ['hasOKey', d.hasOKey],
      ['hasCF', d.hasCF],
      ['mToken', d.mToken],
      ['staticFilterFields', d.staticFilterFields],
      ...Object.keys(d.extra)
        .sort(compareStrings)
        .map((key) => [key, d.extra[key]] as [string, unknown]),
      ...(d.fields === undefined ? [] : [['$fields', d.fields.map(fieldEntry)] as [string, unknown]]),
      ...(lock.fileStems?.has(d.name) ? [['$file', lock.fileStems.get(d.name)] as [string, unknown]] : []),
    ]);
  const messages = [...lock.messages].sort((a, b) => compareStrings(a.name, b.name));
  return `${stableStringify(
    new Map<string, unknown>([
      ['lockfileVersion', lock.lockfileVersion],
      ['source', lock.source],
      ['settings', settingsRecord(lock.settings)],
      ['messages', new Map(messages.map((d) => [d.name, entry(d)]))],
    ]),
  )}\n`;
}

describe('serializeLockfile', () => {
  it('gives the bytes of the generic printer, whatever the descriptors', () => {
    fc.assert(
      fc.property(lockfile, (lock) => {
        expect(serializeLockfile(lock)).toBe(generic(lock));
      }),
      { numRuns: 500 },
    );
  });

  it('gives each entry as the text after its key, and the same bytes in any order', () => {
    fc.assert(
      fc.property(lockfile, (lock) => {
        const { text, entries } = serializeLockfileEntries(lock);
        // The key as the lockfile writes every string: JSON, unsafe characters as \uXXXX.
        for (const [name, entry] of entries) expect(text).toContain(`    ${jsonText(name)}: ${entry}`);
        expect(text).toContain('\n  "messages": {');
        expect(entries.size).toBe(lock.messages.length);
        expect(serializeLockfile({ ...lock, messages: [...lock.messages].reverse() })).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it('a lockfile read back: its descriptors equal those parsed the usual way', () => {
    const long = fc.tuple(fc.string({ unit: fc.constantFrom('a', ' ', '"', '\\', '\n', 'é', '\u2028', '😀'), maxLength: 6 }), fc.nat(80)).map(([text, n]) => `${'plain text '.repeat(6 + n)}${text}`);
    fc.assert(
      fc.property(lockfile, fc.array(long, { minLength: 1, maxLength: 4 }), (lock, descs) => {
        const text = serializeLockfile({ ...lock, messages: lock.messages.map((d, i) => ({ ...d, extra: { ...d.extra, desc: descs[i % descs.length], zLong: { nested: descs[0] } } })) });
        expect(new LockfileText(text, 'lock').parse()).toEqual(parseLockfile(text, 'lock'));
        // Not in schema-sync's layout (one line).
        const flat = JSON.stringify(JSON.parse(text));
        expect(new LockfileText(flat, 'lock').parse()).toEqual(parseLockfile(flat, 'lock'));
      }),
      { numRuns: 150 },
    );
  });

  it('reads back the field descriptors it wrote, and refuses bad ones naming the entry and field', () => {
    fc.assert(
      fc.property(lockfile, (lock) => {
        const parsed = parseLockfile(serializeLockfile(lock), 'lock');
        expect(parsed.messages.map((d) => d.fields)).toEqual([...lock.messages].sort((a, b) => compareStrings(a.name, b.name)).map((d) => d.fields && JSON.parse(JSON.stringify(d.fields))));
      }),
      { numRuns: 100 },
    );
    const entry = { mNum: 1, schemaHash: 'h', actions: [], hasTKey: true, hasEKey: false, hasOKey: false, hasCF: false, mToken: 't', staticFilterFields: [] };
    const bad = JSON.stringify({ lockfileVersion: 1, source: { query: {} }, settings: { fields: true }, messages: { A: { ...entry, $fields: [{ name: 'a', fType: 7 }, { name: 'b' }, { name: 'b' }] } } });
    expect(() => parseLockfile(bad, 'lock')).toThrow('messages["A"].$fields[0].fType: Invalid input: expected string, received number');
    const twice = bad.replace('"fType":7', '"fType":"Int"');
    expect(() => parseLockfile(twice, 'lock')).toThrow('messages["A"].$fields[2]: field "b" is also at [1]');
  });

  it('refuses a known field not in its stored form, every one named as the field table words it', () => {
    const lockText = (A: Record<string, unknown>) => JSON.stringify({ lockfileVersion: 1, source: { query: {} }, messages: { A } });
    expect(() => parseLockfile(lockText({ mNum: -1, schemaHash: 'h', hasTKey: 'Yes', actions: 'SIU', mToken: null, staticFilterFields: ['a', 1] }), 'lock')).toThrow(
      [
        'lock has invalid entries:',
        '  messages["A"].mNum: must be a non-negative integer',
        '  messages["A"].actions: must be an array of strings',
        '  messages["A"].hasTKey: must be true or false',
        '  messages["A"].mToken: must be a string',
        '  messages["A"].staticFilterFields.1: must be an array of strings',
      ].join('\n'),
    );
    expect(() => parseLockfile(lockText({ mNum: 1 }), 'lock')).toThrow('messages["A"].schemaHash: must be a string');
  });

  it('reads the settings of a lockfile whose keys were moved by hand as a full parse does', () => {
    const text = serializeLockfile({ lockfileVersion: 1, source: { query: {} }, settings: { package: 'pkg', target: 'ts' }, messages: [] });
    const { settings, ...rest } = JSON.parse(text) as Record<string, unknown>;
    // The settings after the messages, and missing before them.
    const moved = `${JSON.stringify({ ...rest, settings }, null, 2)}\n`;
    expect(moved).toContain(',\n  "messages": ');
    expect(parseLockfile(moved, 'lock').settings).toEqual({ package: 'pkg', target: 'ts' });
    expect(new LockfileText(moved, 'lock').settings()).toEqual({ package: 'pkg', target: 'ts' });
  });

  it('reads back the file stems it wrote (none when it wrote none), and refuses one that is no stem', () => {
    fc.assert(
      fc.property(lockfile, (lock) => {
        const parsed = parseLockfile(serializeLockfile(lock), 'lock');
        expect(parsed.fileStems).toEqual(lock.fileStems);
        expect(parsed.messages.every((d) => !('$file' in d.extra))).toBe(true);
      }),
      { numRuns: 50 },
    );
    const entry = { mNum: 1, schemaHash: 'h' };
    const lockText = ($file: unknown) => JSON.stringify({ lockfileVersion: 1, source: { query: {} }, messages: { A: { ...entry, $file } } });
    const problem = 'messages["A"].$file: expected a file stem: up to 210 letters, digits, _ or $, not starting with a digit';
    for (const bad of ['../x', 'a.ts', '', '1a', 7, 'x'.repeat(211)]) expect(() => parseLockfile(lockText(bad), 'lock')).toThrow(problem);
  });

  it('records the generation settings, read back by a full parse', () => {
    fc.assert(
      fc.property(lockfile, (lock) => {
        const text = serializeLockfile(lock);
        expect(parseLockfile(text, 'lock').settings).toEqual(lock.settings);
      }),
      { numRuns: 200 },
    );
  });

});

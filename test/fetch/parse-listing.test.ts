import { describe, expect, it } from 'vitest';
import { parseListing } from '../../src/fetch/parse-listing.js';
import { ValidationError } from '../../src/model/errors.js';
import { wireElement } from '../helpers/listing.js';

const parse = (listing: unknown[]) => parseListing(listing, { origin: 'test' });

describe('parseListing', () => {
  it('reports every invalid field of an element, in zod’s words', () => {
    const listing = [wireElement({ hasCF: 'maybe', mNum: -1 })];
    expect(() => parseListing(listing, { origin: 'test' })).toThrow(/field message\.mNum: expected a non-negative integer, got -1[\s\S]*field message\.hasCF: expected "Yes" or "No"/);
  });

  it('takes an older deployment’s descriptor: absent fields stay absent, mCat is kept as an unknown field', () => {
    const older = { header: { mTyp: 'MsgDesc' }, message: { pkey: {}, name: 'Old', mNum: 2745, schemaHash: 'AB', hasTKey: 'Yes', hasEKey: 'No', hasOKey: 'No', mCat: 'MarketData' } };
    const [descriptor] = parse([older]).descriptors;
    // Key order too: known fields in their order, absent ones left out, then extra.
    expect(Object.keys(descriptor!)).toEqual(['name', 'mNum', 'schemaHash', 'hasTKey', 'hasEKey', 'hasOKey', 'extra']);
    expect(descriptor).toEqual({ name: 'Old', mNum: 2745, schemaHash: 'AB', hasTKey: true, hasEKey: false, hasOKey: false, extra: { mCat: 'MarketData', pkey: {} } });
  });

  it.each([
    ['$fields', 'the field descriptors it records (--fields)'],
    ['$file', 'the file name it records'],
  ])('refuses the key %s, which the lockfile entry of schema-sync keeps for %s', (key, what) => {
    expect(() => parse([wireElement({ name: 'A', [key]: 'x' })])).toThrow(`element 0 ("A"), field message.${key}: a key schema-sync reserves for ${what}; no protobuf name has a $`);
  });

  it('needs only name, mNum and schemaHash', () => {
    const [descriptor] = parse([{ header: { msgType: 'MsgDesc' }, message: { name: 'Bare', mNum: 1, schemaHash: 'H' } }]).descriptors;
    expect(descriptor).toEqual({ name: 'Bare', mNum: 1, schemaHash: 'H', extra: {} });
  });

  it('refuses a missing schemaHash, naming the element and saying why it is needed', () => {
    expect(() => parse([{ header: {}, message: { name: 'NoHash', mNum: 1 } }])).toThrow(
      'element 0 ("NoHash"), field message.schemaHash: expected a string (schema-sync needs the schema hash to detect drift), but it is missing',
    );
  });

  it('reads empty values as empty, not absent', () => {
    const [descriptor] = parse([wireElement({ actions: '', staticFilterFields: '', mToken: '' })]).descriptors;
    expect(descriptor).toMatchObject({ actions: [], staticFilterFields: [], mToken: '' });
  });

  it.each([
    ['Select,Insert', ['select', 'insert']],
    [31, ['select', 'insert', 'update', 'replace', 'delete']],
    ['3', ['select', 'insert']],
    [['MLINKACTIONS_DELETE', 'MLINKACTIONS_SELECT'], ['select', 'delete']],
  ])('reads actions %j as %j', (actions, expected) => {
    expect(parse([wireElement({ actions })]).descriptors[0]!.actions).toEqual(expected);
  });

  it.each([['YESNO_YES', true], ['YESNO_NO', false], [1, true], [2, false], ['2', false], [true, true]])('reads the flag %j as %s', (flag, expected) => {
    expect(parse([wireElement({ hasTKey: flag, hasCF: flag })]).descriptors[0]).toMatchObject({ hasTKey: expected, hasCF: expected });
  });

  it('refuses every unreadable value at once, naming element, name, field and value, never splitting into letters', () => {
    const listing = [
      wireElement({ name: 'Typo', mNum: 1, actions: 'Select,Insrt' }),
      wireElement({ name: 'Mask', mNum: 2, actions: 64 }),
      wireElement({ name: 'Bool', mNum: 3, actions: true }),
      wireElement({ name: 'Nil', mNum: 4, actions: null }),
      wireElement({ name: 'Zero', mNum: 5, hasTKey: 0 }),
      wireElement({ name: 'Three', mNum: 6, hasEKey: 3 }),
      wireElement({ name: 'Maybe', mNum: 7, hasOKey: 'YESNO_MAYBE' }),
      wireElement({ name: 'Null', mNum: 8, hasCF: null }),
    ];
    let error: unknown;
    try {
      parse(listing);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    const message = (error as Error).message;
    expect(message).toContain('8 invalid fields');
    expect(message).toContain('element 0 ("Typo"), field message.actions: expected action letters ("SIURD")');
    expect(message).toContain('"Insrt" is none of these, got "Select,Insrt"');
    expect(message).toMatch(/element 1 \("Mask"\), field message\.actions: expected .* a bit mask 0\.\.31, or an array of these, got 64/);
    expect(message).toMatch(/element 2 \("Bool"\), field message\.actions: expected action letters \("SIURD"\), .* or an array of these, got true/);
    expect(message).toContain('element 3 ("Nil"), field message.actions:');
    const flag = 'expected "Yes" or "No" (any case), a boolean, YESNO_YES or YESNO_NO, or 1 (yes) or 2 (no)';
    expect(message).toContain(`element 4 ("Zero"), field message.hasTKey: ${flag}, got 0`);
    expect(message).toContain(`element 5 ("Three"), field message.hasEKey: ${flag}, got 3`);
    expect(message).toContain(`element 6 ("Maybe"), field message.hasOKey: ${flag}, got "YESNO_MAYBE"`);
    expect(message).toContain(`element 7 ("Null"), field message.hasCF: ${flag}, got null`);
  });
});

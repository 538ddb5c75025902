import { describe, expect, it } from 'vitest';
import { listingBody, loadListingFile } from '../../../src/server/listing.js';
import { wireElement } from '../../server/fixtures.js';
import { startTestServer } from './index.js';
import { shapeListing, type ActionsEncoding, type FlagEncoding } from './listing-shape.js';

/** One element with the given actions letters and flags as the listing file writes them. */
function element(actions: unknown, hasTKey: unknown = 'Yes', hasEKey: unknown = 'No'): Record<string, unknown> {
  const e = wireElement('Order', 1000, 'Trading');
  return { ...e, message: { ...(e['message'] as object), actions, hasTKey, hasEKey, mCat: 'Trading' } };
}

const messageOf = (shaped: readonly unknown[]) => (shaped[0] as { message: Record<string, unknown> }).message;

describe('shapeListing', () => {
  it.each<[ActionsEncoding, unknown, unknown]>([
    ['letters', 'SI', 'SIURD'],
    ['names', 'Select,Insert', 'Select,Insert,Update,Replace,Delete'],
    ['names-pipes', 'SELECT|INSERT', 'SELECT|INSERT|UPDATE|REPLACE|DELETE'],
    ['names-spaces', 'select insert', 'select insert update replace delete'],
    ['enum', 'MLINKACTIONS_SELECT,MLINKACTIONS_INSERT', 'MLINKACTIONS_SELECT,MLINKACTIONS_INSERT,MLINKACTIONS_UPDATE,MLINKACTIONS_REPLACE,MLINKACTIONS_DELETE'],
    ['mask', 3, 31],
    ['mask-string', '3', '31'],
    ['array', ['MLINKACTIONS_SELECT', 'MLINKACTIONS_INSERT'], ['MLINKACTIONS_SELECT', 'MLINKACTIONS_INSERT', 'MLINKACTIONS_UPDATE', 'MLINKACTIONS_REPLACE', 'MLINKACTIONS_DELETE']],
  ])('writes actions as %s', (actions, si, siurd) => {
    expect(messageOf(shapeListing([element('SI')], { actions }))['actions']).toEqual(si);
    expect(messageOf(shapeListing([element('SIURD')], { actions }))['actions']).toEqual(siurd);
  });

  it('writes no actions as the empty value of each encoding, and leaves values it does not know alone', () => {
    expect(messageOf(shapeListing([element('')], { actions: 'mask' }))['actions']).toBe(0);
    expect(messageOf(shapeListing([element('')], { actions: 'array' }))['actions']).toEqual([]);
    expect(messageOf(shapeListing([element('Bogus')], { actions: 'mask' }))['actions']).toBe('Bogus');
  });

  it.each<[FlagEncoding, unknown, unknown]>([
    ['yes-no', 'Yes', 'No'],
    ['boolean', true, false],
    ['enum', 'YESNO_YES', 'YESNO_NO'],
    ['number', 1, 2],
  ])('writes key flags as %s', (flags, yes, no) => {
    const message = messageOf(shapeListing([element('S', 'yes', false)], { flags }));
    expect([message['hasTKey'], message['hasEKey'], message['hasCF']]).toEqual([yes, no, yes]);
  });

  it("serves an older deployment's fields only, under the header key mTyp, in the listing's order", () => {
    const listing = [element('SIURD')];
    const shaped = shapeListing(listing, { older: true }) as Array<{ header: unknown; message: Record<string, unknown> }>;
    expect(shaped[0]!.header).toEqual({ mTyp: 'MsgDesc' });
    expect(Object.keys(shaped[0]!.message)).toEqual(['pkey', 'name', 'mNum', 'schemaHash', 'hasTKey', 'hasEKey', 'hasOKey', 'mCat']);
    // The configured header key still wins, and the shared listing is never changed.
    expect((listingBody(shaped, { headerKey: 'msgType' })[0] as { header: unknown }).header).toEqual({ msgType: 'MsgDesc' });
    expect(listing).toEqual([element('SIURD')]);
    expect(shapeListing(listing, undefined)).toBe(listing);
  });

  it('keeps a field called __proto__ as an own field', () => {
    const e = element('S');
    const message = JSON.parse('{"__proto__": {"x": 1}, "name": "P", "mNum": 1, "actions": "S"}') as Record<string, unknown>;
    const shaped = messageOf(shapeListing([{ ...e, message }], { actions: 'names' }));
    expect(Object.hasOwn(shaped, '__proto__')).toBe(true);
    expect(shaped['actions']).toBe('Select');
  });

  it('serves the example listing in the shape asked (actions as names, flags as enum)', async () => {
    const server = await startTestServer({ listing: await loadListingFile('examples/descriptors.json'), shape: { actions: 'names', flags: 'enum' } });
    try {
      const listing = (await (await fetch(`${server.url}/rest/proto?limit=5`)).json()) as unknown[];
      expect(listing).toHaveLength(5);
      expect((listing[0] as { message: unknown }).message).toMatchObject({ actions: 'Select,Insert,Update,Replace,Delete', hasTKey: 'YESNO_YES', hasEKey: 'YESNO_NO' });
    } finally {
      await server.close();
    }
  });
});

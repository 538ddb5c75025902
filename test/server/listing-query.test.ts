import { describe, expect, it } from 'vitest';
import {
  buildTrailer,
  parseListingQuery,
  parseWhere,
  selectElements,
  withHeaderKey,
} from '../../src/server/listing.js';

describe('parseListingQuery', () => {
  it.each<[Record<string, string>, ReturnType<typeof parseListingQuery>]>([
    [{}, { ok: true, query: {} }],
    [
      { cmd: 'getmsgtypes', apikey: 'k' },
      { ok: true, query: {} },
    ],
    [{ limit: '1' }, { ok: true, query: { limit: 1 } }],
    [{ limit: '007' }, { ok: true, query: { limit: 7 } }],
    [{ msgType: '1000' }, { ok: true, query: { msgType: '1000' } }],
    [
      { where: 'a:eq:1,b:ne:' },
      {
        ok: true,
        query: {
          where: [
            { field: 'a', op: 'eq', value: '1' },
            { field: 'b', op: 'ne', value: '' },
          ],
        },
      },
    ],
    [{ limit: ' 5' }, { ok: false, error: 'invalid limit " 5": must be an integer 1..10000' }],
    [{ where: 'a.b:eq:1' }, { ok: false, error: 'invalid where clause "a.b:eq:1": bad field name "a.b"' }],
  ])('%j', (params, want) => {
    expect(parseListingQuery(params)).toEqual(want);
  });

  it('keeps colons in where values', () => {
    expect(parseWhere('topic:eq:a:b:c')).toEqual([{ field: 'topic', op: 'eq', value: 'a:b:c' }]);
  });
});

describe('selectElements', () => {
  const listing = [
    { header: { msgType: 'MsgDesc' }, message: { name: 'A', mNum: '7', mToken: 'T' } },
    'garbage',
    { header: { msgType: 'MsgDesc' }, message: { name: 'B', mNum: 8, hasCF: true } },
  ];

  it.each<[string, Parameters<typeof selectElements>[1], unknown[]]>([
    ['mNum as a string', { msgType: '7' }, [listing[0]]],
    ['mNum with leading zeros', { msgType: '008' }, [listing[2]]],
    ['boolean values as text', { where: [{ field: 'hasCF', op: 'eq', value: 'true' }] }, [listing[2]]],
    ['malformed elements match ne', { where: [{ field: 'mToken', op: 'ne', value: 'T' }] }, ['garbage', listing[2]]],
  ])('%s', (_, query, want) => {
    expect(selectElements(listing, query)).toEqual(want);
  });
});

describe('listing body parts', () => {
  it('leaves elements without a header key, or with both spellings, sensible', () => {
    expect(withHeaderKey(42, 'mTyp')).toBe(42);
    expect(withHeaderKey({ header: { other: 1 } }, 'mTyp')).toEqual({ header: { other: 1 } });
    expect(withHeaderKey({ header: { msgType: 'A', mTyp: 'B' } }, 'mTyp')).toEqual({ header: { mTyp: 'B' } });
  });

  it('builds a trailer with detail only when given', () => {
    expect(buildTrailer({}, { descriptorsSent: 2, headerKey: 'msgType' })).toEqual({
      header: { msgType: 'QueryResult' },
      message: { numMessagesSent: 2, queryElapsed: 0, result: 'Ok' },
    });
  });
});

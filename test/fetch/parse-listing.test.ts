import { describe, expect, it } from 'vitest';
import { parseListing } from '../../src/fetch/parse-listing.js';
import { wireElement } from '../helpers/listing.js';

describe('parseListing', () => {
  it('reports every invalid field of an element, in zod’s words', () => {
    const listing = [wireElement({ hasCF: 'maybe', mNum: -1 })];
    expect(() => parseListing(listing, { origin: 'test' })).toThrow(/field message\.mNum: expected a non-negative integer, got -1[\s\S]*field message\.hasCF: expected "Yes" or "No"/);
  });
});

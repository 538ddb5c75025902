import { wireElement, type WireElement } from './listing.js';

/**
 * Two small listings, `before` and `after`, whose difference has one change of most rules: a
 * removal, a rename, a new mNum, a lost action, a moved token, a new hash, a new description, an
 * addition. Shared by the `diff`, scope and workflow tests.
 */
export function driftListings(): { before: WireElement[]; after: WireElement[] } {
  const before = [
    wireElement({ name: 'OrderNew', mNum: 10, mToken: 'Trading' }),
    wireElement({ name: 'OrderCancel', mNum: 11, mToken: 'Trading', actions: 'SIURD' }),
    wireElement({ name: 'OrderFill', mNum: 12, mToken: 'Trading', desc: 'A fill' }),
    wireElement({ name: 'RiskLimit', mNum: 20, mToken: 'Risk' }),
    wireElement({ name: 'RiskOld', mNum: 21, mToken: 'Risk' }),
    wireElement({ name: 'PositionOld', mNum: 30, mToken: 'Position' }),
    wireElement({ name: 'Quote', mNum: 40, mToken: 'Market' }),
  ];
  const after = [
    wireElement({ name: 'OrderNew', mNum: 10, mToken: 'Trading', schemaHash: 'FEDCBA9876543210' }),
    wireElement({ name: 'OrderCancel', mNum: 11, mToken: 'Trading', actions: 'SIUR' }),
    wireElement({ name: 'OrderFill', mNum: 12, mToken: 'Trading', desc: 'A fill of an order' }),
    wireElement({ name: 'RiskLimit', mNum: 20, mToken: 'Pricing' }),
    wireElement({ name: 'Position', mNum: 30, mToken: 'Position' }),
    wireElement({ name: 'Quote', mNum: 41, mToken: 'Market' }),
    wireElement({ name: 'Trade', mNum: 50, mToken: 'Trading' }),
  ];
  return { before, after };
}

/** The example listing's types that examples/descriptors.schemas.json describes, with those fields (the records tests' output). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Descriptor } from '../../src/model/descriptor.js';
import { makeField } from '../../src/model/field.js';
import { loadExampleDescriptors, REPO_ROOT } from './helpers.js';

/** OptionNbboQuote (an option key), StockBookQuote and TickerDefinition (a ticker key), SpreadDefinition (an expiry key and a text key field, a repeating group), AccountRiskRecordV5 (four scalar key fields). */
export async function describedExampleTypes(): Promise<Descriptor[]> {
  const schemas = JSON.parse(readFileSync(join(REPO_ROOT, 'examples/descriptors.schemas.json'), 'utf8')) as Record<string, Record<string, string | number>[]>;
  return (await loadExampleDescriptors())
    .filter((d) => schemas[d.name] !== undefined)
    .map((d) => ({
      ...d,
      fields: schemas[d.name]!.map(({ name, fType, isPkey, inRepeater, eSet, pos }) =>
        makeField({ name: String(name), fType: String(fType), pos: Number(pos), isPkey: isPkey === 'Yes', ...(inRepeater ? { inRepeater: String(inRepeater) } : {}), ...(eSet ? { eSet: String(eSet).split(',') } : {}) }, {}),
      ),
    }));
}

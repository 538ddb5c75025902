import type { Descriptor } from '../../src/model/descriptor.js';

/**
 * A descriptor with plain defaults; tests override only the fields they are about. Key flags
 * start mixed (T on, E off, O on) so both directions are one override away.
 */
export function descriptor(name: string, overrides: Partial<Omit<Descriptor, 'name'>> = {}): Descriptor {
  return {
    name,
    mNum: 1,
    schemaHash: 'AAAA',
    actions: ['select', 'insert'],
    hasTKey: true,
    hasEKey: false,
    hasOKey: true,
    hasCF: false,
    mToken: 'Core',
    staticFilterFields: ['region'],
    extra: {},
    ...overrides,
  };
}

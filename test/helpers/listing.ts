import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One wire element of a listing. */
export interface WireElement {
  header: Record<string, unknown>;
  message: Record<string, unknown>;
}

/** The bundled example listing (264 descriptors), a fresh copy each call. */
export function exampleListing(): WireElement[] {
  const path = fileURLToPath(new URL('../../examples/descriptors.json', import.meta.url));
  return JSON.parse(readFileSync(path, 'utf8')) as WireElement[];
}

/** A small valid wire element; override any message field. */
export function wireElement(message: Record<string, unknown> = {}, headerKey = 'msgType'): WireElement {
  return {
    header: { [headerKey]: 'MsgDesc' },
    message: {
      name: 'Order',
      mNum: 1,
      schemaHash: '0123456789ABCDEF',
      actions: 'SIURD',
      hasTKey: 'Yes',
      hasEKey: 'No',
      hasOKey: 'No',
      hasCF: 'No',
      mToken: 'Trading',
      staticFilterFields: 'accnt,ticker',
      ...message,
    },
  };
}

/** `n` distinct valid elements named T0000… */
export function smallListing(n: number): WireElement[] {
  return Array.from({ length: n }, (_, i) =>
    wireElement({ name: `T${String(i).padStart(4, '0')}`, mNum: 1000 + i, schemaHash: `H${i}` }),
  );
}

/**
 * A real-shaped evolution for the impact tests: a consumer project beside the output folder,
 * and the descriptors of two listings (types removed and changed, record fields removed, an
 * enum value removed, an action removed).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { makeDescriptor, type Descriptor } from '../../src/model/descriptor.js';
import { makeField, type FieldDescriptor } from '../../src/model/field.js';

const field = (pos: number, name: string, fType: string, more: Partial<FieldDescriptor> = {}): FieldDescriptor =>
  makeField({ name, pos, fNum: pos, fType, ...more }, {});

/** A descriptor with record fields. */
function message(name: string, mNum: number, schemaHash: string, actions: string[], fields: FieldDescriptor[]): Descriptor {
  const d = makeDescriptor({ name, mNum, schemaHash, actions, hasTKey: true, hasEKey: false, hasOKey: false, hasCF: false, mToken: 'Market', staticFilterFields: [] }, {});
  return { ...d, fields };
}

const quoteFields = (side: string[], withBid: boolean): FieldDescriptor[] => [
  field(1, 'ticker', 'TickerKey', { isPkey: true }),
  ...(withBid ? [field(2, 'bidPrice', 'Double')] : []),
  field(3, 'askPrice', 'Double'),
  field(4, 'side', 'Enum', { eSet: side }),
];
const plain = (name: string, mNum: number, hash: string): Descriptor => message(name, mNum, hash, ['select'], [field(1, 'value', 'Int')]);

/** The listing before: what the lockfile holds. */
export const BEFORE: Descriptor[] = [
  message('Quote', 10, 'AAAA000000000001', ['select', 'insert'], quoteFields(['Buy', 'Sell'], true)),
  message('Trade', 20, 'AAAA000000000002', ['select', 'insert', 'delete'], [field(1, 'price', 'Double')]),
  plain('OldType', 30, 'AAAA000000000003'),
  plain('UsedStill', 40, 'AAAA000000000004'),
  plain('Unused', 50, 'AAAA000000000005'),
  plain('Steady', 60, 'AAAA000000000006'),
];

/** The listing after: OldType removed, Quote lost bidPrice and the enum value Sell, Trade lost delete, two hashes changed. */
export const AFTER: Descriptor[] = [
  message('Quote', 10, 'BBBB000000000001', ['select', 'insert'], quoteFields(['Buy'], false)),
  message('Trade', 20, 'BBBB000000000002', ['select', 'insert'], [field(1, 'price', 'Double')]),
  plain('UsedStill', 40, 'BBBB000000000004'),
  plain('Unused', 50, 'BBBB000000000005'),
  plain('Steady', 60, 'AAAA000000000006'),
];

/** The consumer's files: each use is on a line of its own, so tests can name the line. */
export const CONSUMER: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022'], noEmit: true, skipLibCheck: false }, include: ['src'] }, null, 2),
  'package.json': JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  'src/quotes.ts': [
    "import { Quote, type QuoteRecord } from '../gen/index.js';",
    '',
    'export function bid(record: QuoteRecord): number {',
    '  return record.bidPrice ?? 0;', // line 4: broken (field removed)
    '}',
    '',
    'export function sideName(record: QuoteRecord): string {',
    '  switch (record.side) {',
    "    case 'Buy':",
    "      return 'buy';",
    "    case 'Sell':", // line 11: broken (enum value removed)
    "      return 'sell';",
    '  }',
    "  return 'none';",
    '}',
    '',
    'export const quoteNumber = Quote.mNum;', // line 17: referenced, still compiles
    '',
  ].join('\n'),
  'src/trades.ts': [
    "import { Trade } from '../gen/index.js';",
    '',
    "export const canDelete = Trade.actions.includes('delete');", // line 3: broken (action removed)
    '',
  ].join('\n'),
  'src/old.ts': [
    "import { OldType } from '../gen/index.js';", // line 1: broken (type removed)
    '',
    'export const oldName = OldType.name;',
    '',
  ].join('\n'),
  'src/used.ts': [
    "import { UsedStill, Steady } from '../gen/index.js';",
    '',
    'export const names = [UsedStill.name, Steady.name];', // UsedStill referenced; Steady unchanged
    '',
  ].join('\n'),
  'src/own-error.ts': ["export const wrong: number = 'not a number';", ''].join('\n'), // an error the project had before
};

/** Writes the consumer's files into `dir`. */
export async function writeConsumer(dir: string, files: Record<string, string> = CONSUMER): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

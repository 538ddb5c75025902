/**
 * The listing of the impact matrix (issue 40): nine message types, each changed in one of the
 * nine kinds of change, and how a consumer reads what changed of each.
 */
import { makeDescriptor, type Descriptor } from '../../src/model/descriptor.js';
import { makeField, type FieldDescriptor } from '../../src/model/field.js';

/** One kind of change: the message type it changes and how the consumer reads what changed. */
export interface Kind {
  /** The consumer project's folder. */
  id: string;
  title: string;
  /** The name the consumer uses (the type's name before the change). */
  message: string;
  /** The field every attributed error must name; none for a change of the whole type. */
  field?: string;
  /** Where the changed property is: the message's constant or its record type. */
  on: 'constant' | 'record';
  /** The property the consumer reads. */
  prop: string;
  /** A literal of one of its values before, not after. */
  lit: string;
  /** Its type before (what the consumer's code pins). */
  type: string;
  /** The whole property's value before, in an object literal. */
  value: string;
  mNum: number;
}

const recordKind = (id: string, title: string, message: string, prop: string, lit: string, type: string): Kind => ({ id, title, message, field: prop, on: 'record', prop, lit, type, value: lit, mNum: 0 });

/** The nine kinds of change of issue 40, in its order. */
export const KINDS: Kind[] = [
  { id: 'removed', title: 'type removed', message: 'Gone', on: 'constant', prop: 'mNum', lit: '101', type: '101', value: '101', mNum: 101 },
  { id: 'renamed', title: 'type renamed', message: 'OldName', on: 'constant', prop: 'mNum', lit: '102', type: '102', value: '102', mNum: 102 },
  { id: 'mnum', title: 'mNum changed', message: 'Renum', field: 'mNum', on: 'constant', prop: 'mNum', lit: '103', type: '103', value: '103', mNum: 103 },
  { id: 'action', title: 'action removed', message: 'Act', field: 'actions', on: 'constant', prop: 'actions', lit: "'delete'", type: "'select' | 'insert' | 'delete'", value: "['select', 'insert', 'delete']", mNum: 104 },
  { id: 'flag', title: 'key flag changed', message: 'Flag', field: 'hasTKey', on: 'constant', prop: 'hasTKey', lit: 'true', type: 'true', value: 'true', mNum: 105 },
  { ...recordKind('field-removed', 'record field removed', 'Rec', 'bidPrice', '1', 'number'), mNum: 106 },
  { ...recordKind('field-type', "field's type changed", 'Typed', 'size', '1', 'number'), mNum: 107 },
  { ...recordKind('enum-value', 'enum value removed', 'Enm', 'side', "'Sell'", "'Buy' | 'Sell'"), mNum: 108 },
  { ...recordKind('key-field', 'key field changed', 'Keyed', 'venue', "'X'", 'string'), mNum: 109 },
];

const field = (pos: number, name: string, fType: string, more: Partial<FieldDescriptor> = {}): FieldDescriptor => makeField({ name, pos, fNum: pos, fType, ...more }, {});

interface Shape {
  actions?: string[];
  hasTKey?: boolean;
  bid?: boolean;
  sizeType?: string;
  sides?: string[];
  venueKey?: boolean;
}

function message(name: string, mNum: number, hash: string, shape: Shape = {}): Descriptor {
  const d = makeDescriptor(
    { name, mNum, schemaHash: hash, actions: shape.actions ?? ['select', 'insert', 'delete'], hasTKey: shape.hasTKey ?? true, hasEKey: false, hasOKey: false, hasCF: false, mToken: 'Market', staticFilterFields: [] },
    {},
  );
  const fields = [
    field(1, 'ticker', 'TickerKey', { isPkey: true }),
    ...(shape.bid === false ? [] : [field(2, 'bidPrice', 'Double')]),
    field(3, 'size', shape.sizeType ?? 'Int'),
    field(4, 'side', 'Enum', { eSet: shape.sides ?? ['Buy', 'Sell'] }),
    field(5, 'venue', 'String', shape.venueKey === true ? { isPkey: true } : {}),
  ];
  return { ...d, fields };
}

/** The listing before. */
export const MATRIX_BEFORE: Descriptor[] = KINDS.map((kind) => message(kind.message, kind.mNum, `AAAA00000000${kind.mNum}`));

/** The listing after: each kind's type changed in its one way (and its schema hash, as a real change does). */
export const MATRIX_AFTER: Descriptor[] = KINDS.flatMap((kind): Descriptor[] => {
  const hash = `BBBB00000000${kind.mNum}`;
  switch (kind.id) {
    case 'removed':
      return [];
    case 'renamed':
      return [message('NewName', kind.mNum, `AAAA00000000${kind.mNum}`)];
    case 'mnum':
      return [message(kind.message, 113, `AAAA00000000${kind.mNum}`)];
    case 'action':
      return [message(kind.message, kind.mNum, hash, { actions: ['select', 'insert'] })];
    case 'flag':
      return [message(kind.message, kind.mNum, hash, { hasTKey: false })];
    case 'field-removed':
      return [message(kind.message, kind.mNum, hash, { bid: false })];
    case 'field-type':
      return [message(kind.message, kind.mNum, hash, { sizeType: 'String' })];
    case 'enum-value':
      return [message(kind.message, kind.mNum, hash, { sides: ['Buy'] })];
    default:
      return [message(kind.message, kind.mNum, hash, { venueKey: true })];
  }
});

/**
 * The records grammar as the reference server reads it (`cmd=getmsgs`): `where` parsed into a
 * tree and matched against a record, `order` parsed into levels and turned into a comparison, and
 * the value of a field a clause names (a field, a key field, a key's part after a dot, a whole
 * key as its string). What the service documents (SPEC.md, "Records queries"): `field:op:value`,
 * `op` one of `eq ne gt ge lt le sw ew cv nv cb` (`cb`: between two values joined by `$`, or `#`
 * as one page of the vendor's writes it), `&` AND, `|` OR (AND ranks first), parentheses. A
 * malformed clause is an error text, which the answer carries in its `QueryResult`.
 */

/** One `field:op:value` clause. */
export interface WhereClause {
  kind: 'clause';
  field: string;
  op: Operator;
  value: string;
}

/** A `where` tree: a clause, or all (`and`) or any (`or`) of several. */
export type WhereNode = WhereClause | { kind: 'and' | 'or'; members: WhereNode[] };

const OPERATORS = ['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'sw', 'ew', 'cv', 'nv', 'cb'] as const;
type Operator = (typeof OPERATORS)[number];

/** A field a clause names: a field, or a key's part after a dot. */
const FIELD = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)?$/;

/**
 * Parses a `where`: clauses joined by `&` and `|`, grouped by parentheses; the value of a clause
 * runs to the next `&`, `|` or `)` (the grammar has no escape).
 * @returns the tree, or the error text
 */
export function parseWhere(text: string): WhereNode | string {
  let at = 0;
  const fail = (problem: string): never => {
    throw new WhereError(`invalid where "${text}": ${problem}`);
  };
  const any = (): WhereNode => {
    const members = [all()];
    while (text[at] === '|') {
      at++;
      members.push(all());
    }
    return members.length === 1 ? members[0]! : { kind: 'or', members };
  };
  const all = (): WhereNode => {
    const members = [one()];
    while (text[at] === '&') {
      at++;
      members.push(one());
    }
    return members.length === 1 ? members[0]! : { kind: 'and', members };
  };
  const one = (): WhereNode => {
    if (text[at] === '(') {
      at++;
      const inner = any();
      if (text[at] !== ')') fail(`a parenthesis opened is not closed (at offset ${at})`);
      at++;
      return inner;
    }
    const start = at;
    while (at < text.length && !'&|()'.includes(text[at]!)) at++;
    return clause(text.slice(start, at), fail);
  };
  try {
    const tree = any();
    if (at < text.length) fail(`unexpected "${text[at]}" at offset ${at}`);
    return tree;
  } catch (error) {
    if (error instanceof WhereError) return error.message;
    throw error;
  }
}

class WhereError extends Error {}

function clause(part: string, fail: (problem: string) => never): WhereClause {
  const first = part.indexOf(':');
  const second = first === -1 ? -1 : part.indexOf(':', first + 1);
  if (second === -1) return fail(`clause "${part}" is not field:op:value`);
  const field = part.slice(0, first);
  const op = part.slice(first + 1, second);
  if (!FIELD.test(field)) fail(`clause "${part}" has a bad field name "${field}"`);
  if (!(OPERATORS as readonly string[]).includes(op)) fail(`clause "${part}" has an unknown operator "${op}" (use one of ${OPERATORS.join(' ')})`);
  const value = part.slice(second + 1);
  if (op === 'cb' && value.split(/[$#]/).length !== 2) fail(`clause "${part}" needs two values joined by "$" for cb`);
  return { kind: 'clause', field, op: op as Operator, value };
}

/** The fields a `where` tree names, in order. */
export function fieldsIn(node: WhereNode): string[] {
  return node.kind === 'clause' ? [node.field] : node.members.flatMap(fieldsIn);
}

/** One level of `order`. */
export interface OrderLevel {
  field: string;
  descending: boolean;
  absolute: boolean;
}

/**
 * Parses an `order`: levels joined by `|`, each `field:ASC`, `field:DESC`, with `:ABS` after.
 * @returns the levels, or the error text
 */
export function parseOrder(text: string): OrderLevel[] | string {
  const levels: OrderLevel[] = [];
  for (const part of text.split('|')) {
    const [field = '', direction, abs, ...rest] = part.split(':');
    if (!FIELD.test(field) || (direction !== 'ASC' && direction !== 'DESC') || (abs !== undefined && abs !== 'ABS') || rest.length > 0) {
      return `invalid order "${part}": expected field:ASC or field:DESC, with :ABS after for an absolute value`;
    }
    levels.push({ field, descending: direction === 'DESC', absolute: abs === 'ABS' });
  }
  return levels;
}

/** A record's `message`. */
type Message = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A key object in the service's string form (`tk-ts-at`, then `-dt`, then `-xx-C` or `-P`). */
export function keyString(key: Readonly<Record<string, unknown>>): string {
  const parts = [key['tk'], key['ts'], key['at']];
  if (key['dt'] !== undefined) parts.push(key['dt']);
  if (key['xx'] !== undefined || key['cp'] !== undefined) parts.push(key['xx'], key['cp'] === 'Put' ? 'P' : key['cp'] === 'Call' ? 'C' : key['cp']);
  return parts.map((part) => (part === undefined ? '' : String(part))).join('-');
}

/** A key field of a type, as its served field descriptors say: its name and the value it has when a record leaves it out. */
export interface KeyField {
  name: string;
  /** '' for text, 0 for a number, the first name of an enum's set; undefined for a key object, which a record never leaves out. */
  fallback: string | number | undefined;
}

/**
 * A record's key as a `pkey` string, its key fields joined by `|`: in the order of the type's
 * key fields where they are known, one the record leaves out at its default (the service leaves
 * out key fields at their default as it does any other); else in the order the record holds them.
 */
export function pkeyString(message: Message, keyFields?: readonly KeyField[]): string | undefined {
  const pkey = isObject(message['pkey']) ? message['pkey'] : undefined;
  if (pkey === undefined && keyFields === undefined) return undefined;
  const parts = keyFields === undefined ? Object.values(pkey!) : keyFields.map((field) => (pkey !== undefined && Object.hasOwn(pkey, field.name) ? pkey[field.name] : field.fallback));
  return parts.map((value) => (isObject(value) ? keyString(value) : value === undefined ? '' : String(value))).join('|');
}

/** The value a clause or order level names: a field beside `pkey` or in it, or a key's part; a whole key as its string. */
export function fieldValue(message: Message, field: string): unknown {
  const [name = '', part] = field.split('.');
  const pkey = isObject(message['pkey']) ? message['pkey'] : {};
  const value = Object.hasOwn(message, name) && name !== 'pkey' ? message[name] : Object.hasOwn(pkey, name) ? pkey[name] : undefined;
  if (part !== undefined) return isObject(value) ? value[part] : undefined;
  return isObject(value) && typeof value['tk'] === 'string' ? keyString(value) : value;
}

/** A number of a record (a `number`, or a `bigint` kept exact), or undefined. */
function numeric(value: unknown): number | bigint | undefined {
  return typeof value === 'number' || typeof value === 'bigint' ? value : undefined;
}

/** The number a clause's text stands for, or undefined: a `bigint` for an integer, a `number` else. */
function numberOf(text: string): number | bigint | undefined {
  if (/^-?\d+$/.test(text)) return BigInt(text);
  return /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text) ? Number(text) : undefined;
}

/** -1, 0 or 1: numbers exactly (a `bigint` against a fraction as numbers), anything else as text by code point. */
function compare(a: number | bigint | string, b: number | bigint | string): number {
  if (typeof a === 'string' || typeof b === 'string') {
    const [x, y] = [String(a), String(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number' && Number.isInteger(a) && typeof b === 'bigint') return compare(BigInt(a), b);
  if (typeof b === 'number' && Number.isInteger(b) && typeof a === 'bigint') return compare(a, BigInt(b));
  const [x, y] = [Number(a), Number(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The record's value and the clause's, made comparable: numbers when the record's is a number
 * (or absent: its default, 0) and the clause's reads as one, else text (an absent value as '').
 */
function operands(value: unknown, text: string): [number | bigint | string, number | bigint | string] {
  const number = numberOf(text);
  const mine = value === undefined ? (number === undefined ? '' : 0) : numeric(value);
  if (mine !== undefined && number !== undefined) return [mine, number];
  return [value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value), text];
}

/** Whether a record matches a `where` tree. Fields left out are at their default (0, ''), as the service leaves defaults out. */
export function matches(message: Message, node: WhereNode): boolean {
  if (node.kind !== 'clause') return node.kind === 'and' ? node.members.every((member) => matches(message, member)) : node.members.some((member) => matches(message, member));
  const value = fieldValue(message, node.field);
  if (node.op === 'cb') {
    const [low = '', high = ''] = node.value.split(/[$#]/);
    return compare(...operands(value, low)) >= 0 && compare(...operands(value, high)) <= 0;
  }
  const [mine, theirs] = operands(value, node.value);
  const text = String(mine);
  switch (node.op) {
    case 'eq':
      return compare(mine, theirs) === 0;
    case 'ne':
      return compare(mine, theirs) !== 0;
    case 'gt':
      return compare(mine, theirs) > 0;
    case 'ge':
      return compare(mine, theirs) >= 0;
    case 'lt':
      return compare(mine, theirs) < 0;
    case 'le':
      return compare(mine, theirs) <= 0;
    case 'sw':
      return text.startsWith(node.value);
    case 'ew':
      return text.endsWith(node.value);
    case 'cv':
      return text.includes(node.value);
    case 'nv':
      return !text.includes(node.value);
  }
}

/** The comparison of two records by `order`'s levels (a stable sort keeps the file's order among equals). */
export function orderBy(levels: readonly OrderLevel[]): (a: Message, b: Message) => number {
  const key = (message: Message, level: OrderLevel): number | bigint | string | undefined => {
    const value = fieldValue(message, level.field);
    const number = numeric(value);
    if (number !== undefined) return level.absolute && number < 0 ? -number : number;
    return value === undefined ? undefined : typeof value === 'object' ? JSON.stringify(value) : String(value);
  };
  // A field left out is at its default: 0 beside a number, '' beside text.
  const orDefault = (value: number | bigint | string | undefined, other: unknown) => value ?? (typeof other === 'string' || other === undefined ? '' : 0);
  return (a, b) => {
    for (const level of levels) {
      const [x, y] = [key(a, level), key(b, level)];
      const order = compare(orDefault(x, y), orDefault(y, x));
      if (order !== 0) return level.descending ? -order : order;
    }
    return 0;
  };
}

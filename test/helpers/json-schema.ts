/**
 * A small JSON Schema (draft-07) validator for the keywords schema-sync's published schemas use,
 * so tests can validate real output against the very file the package ships (no new
 * dependency). A keyword it does not know is an error: it never passes a document by ignoring
 * what it cannot check.
 */
type Schema = boolean | Record<string, unknown>;

const ANNOTATIONS = new Set(['$schema', '$id', 'title', 'description', 'definitions', 'default', 'examples']);
const KNOWN = new Set([
  ...ANNOTATIONS,
  '$ref', 'type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'oneOf', 'anyOf',
  'minItems', 'minLength', 'minimum', 'maximum', 'propertyNames', 'pattern', 'format', 'exclusiveMinimum',
]);

/** The problems of `value` against `root` (empty when valid), each with its JSON path. */
export function validateJson(root: Record<string, unknown>, value: unknown): string[] {
  const problems: string[] = [];
  check(root, root, value, '$', problems);
  return problems;
}

function check(root: Record<string, unknown>, schema: Schema, value: unknown, path: string, problems: string[]): void {
  if (schema === true) return;
  if (schema === false) return void problems.push(`${path}: not allowed`);
  for (const key of Object.keys(schema)) if (!KNOWN.has(key)) throw new Error(`validateJson: unsupported keyword ${key} at ${path}`);
  if (typeof schema['$ref'] === 'string') {
    const target = schema['$ref'].replace(/^#\//, '').split('/').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], root);
    return check(root, target as Schema, value, path, problems);
  }
  const type = schema['type'];
  if (type !== undefined && !(Array.isArray(type) ? type : [type]).some((name) => isType(value, name as string))) {
    return void problems.push(`${path}: expected ${String(type)}, got ${JSON.stringify(value)}`);
  }
  if (Array.isArray(schema['enum']) && !schema['enum'].some((option) => JSON.stringify(option) === JSON.stringify(value))) {
    problems.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema['enum'])}`);
  }
  if ('const' in schema && JSON.stringify(schema['const']) !== JSON.stringify(value)) problems.push(`${path}: expected ${JSON.stringify(schema['const'])}`);
  if (typeof value === 'string') {
    if (typeof schema['minLength'] === 'number' && value.length < schema['minLength']) problems.push(`${path}: shorter than ${schema['minLength']}`);
    if (typeof schema['pattern'] === 'string' && !new RegExp(schema['pattern'], 'u').test(value)) problems.push(`${path}: does not match ${schema['pattern']}`);
  }
  if (typeof value === 'number') {
    if (typeof schema['minimum'] === 'number' && value < schema['minimum']) problems.push(`${path}: below ${schema['minimum']}`);
    if (typeof schema['maximum'] === 'number' && value > schema['maximum']) problems.push(`${path}: above ${schema['maximum']}`);
  }
  if (Array.isArray(value)) {
    if (typeof schema['minItems'] === 'number' && value.length < schema['minItems']) problems.push(`${path}: fewer than ${schema['minItems']} items`);
    if (schema['items'] !== undefined) value.forEach((item, i) => check(root, schema['items'] as Schema, item, `${path}[${i}]`, problems));
  }
  if (isType(value, 'object')) checkObject(root, schema, value as Record<string, unknown>, path, problems);
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const options = schema[keyword];
    if (!Array.isArray(options)) continue;
    const passing = options.filter((option) => validateAt(root, option as Schema, value, path).length === 0).length;
    if (keyword === 'oneOf' ? passing !== 1 : passing === 0) problems.push(`${path}: matches ${passing} of the ${keyword} options`);
  }
}

function checkObject(root: Record<string, unknown>, schema: Record<string, unknown>, value: Record<string, unknown>, path: string, problems: string[]): void {
  const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
  for (const key of (schema['required'] ?? []) as string[]) if (!Object.hasOwn(value, key)) problems.push(`${path}: missing ${key}`);
  for (const [key, item] of Object.entries(value)) {
    if (schema['propertyNames'] !== undefined) check(root, schema['propertyNames'] as Schema, key, `${path} key ${JSON.stringify(key)}`, problems);
    if (Object.hasOwn(properties, key)) check(root, properties[key]!, item, `${path}.${key}`, problems);
    else if (schema['additionalProperties'] !== undefined) check(root, schema['additionalProperties'] as Schema, item, `${path}.${key}`, problems);
  }
}

function validateAt(root: Record<string, unknown>, schema: Schema, value: unknown, path: string): string[] {
  const problems: string[] = [];
  check(root, schema, value, path, problems);
  return problems;
}

function isType(value: unknown, name: string): boolean {
  switch (name) {
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    case 'null':
      return value === null;
    default:
      return typeof value === name;
  }
}

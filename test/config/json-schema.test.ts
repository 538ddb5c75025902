import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { configJsonSchema, configJsonSchemaText, configSchema } from '../../src/config/schema.js';
import { ROOT } from '../helpers/cli.js';

type Schema = Record<string, unknown>;

/**
 * A tiny JSON Schema walk over exactly the keywords config.schema.json uses. An unknown keyword
 * fails the test, so a schema change that needs more checking cannot slip through unnoticed.
 */
function validate(schema: Schema, value: unknown, path = '$'): string[] {
  const known = new Set(['$schema', 'title', 'description', 'type', 'properties', 'additionalProperties', 'enum', 'minimum', 'maximum', 'exclusiveMinimum', 'minLength', 'format', 'pattern']);
  for (const key of Object.keys(schema)) if (!known.has(key)) throw new Error(`validator does not know keyword ${key} at ${path}`);
  const errors: string[] = [];
  const type = schema['type'];
  if (type === 'object') {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path}: not an object`];
    const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
    for (const [key, child] of Object.entries(value)) {
      if (properties[key]) errors.push(...validate(properties[key], child, `${path}.${key}`));
      else if (schema['additionalProperties'] === false) errors.push(`${path}.${key}: not allowed`);
    }
    return errors;
  }
  if (type === 'string' && typeof value !== 'string') return [`${path}: not a string`];
  if (type === 'integer' && !Number.isInteger(value)) return [`${path}: not an integer`];
  if (type === 'number' && typeof value !== 'number') return [`${path}: not a number`];
  if (type === 'boolean' && typeof value !== 'boolean') return [`${path}: not a boolean`];
  if (Array.isArray(schema['enum']) && !schema['enum'].includes(value)) errors.push(`${path}: not one of the enum`);
  if (typeof value === 'number') {
    if (typeof schema['minimum'] === 'number' && value < schema['minimum']) errors.push(`${path}: below minimum`);
    if (typeof schema['maximum'] === 'number' && value > schema['maximum']) errors.push(`${path}: above maximum`);
    if (typeof schema['exclusiveMinimum'] === 'number' && value <= schema['exclusiveMinimum']) errors.push(`${path}: not above exclusiveMinimum`);
  }
  if (typeof value === 'string') {
    if (typeof schema['minLength'] === 'number' && value.length < schema['minLength']) errors.push(`${path}: too short`);
    if (typeof schema['pattern'] === 'string' && !new RegExp(schema['pattern']).test(value)) errors.push(`${path}: does not match pattern`);
    if (schema['format'] === 'uri' && !URL.canParse(value)) errors.push(`${path}: not a URI`);
  }
  return errors;
}

const committed = async () => JSON.parse(await readFile(new URL('config.schema.json', `file://${ROOT}`), 'utf8')) as Schema;

const valid: Record<string, unknown>[] = [
  {},
  { $schema: './node_modules/schema-sync/config.schema.json', baseUrl: 'https://schemas.example.com', cmd: 'getmsgtypes' },
  {
    baseUrl: 'http://127.0.0.1:8080/base',
    out: 'src/generated/schema',
    lockfile: 'schema-sync.lock.json',
    cmd: 'getmsgtypes',
    msgType: 'Order',
    pkey: 'p',
    limit: 10000,
    view: 'v',
    where: 'mToken:ne:SystemData',
    order: 'name',
    timeout: 30000,
    retries: 0,
    format: 'prettier',
    report: 'github',
    failOn: 'breaking',
    templates: 'templates',
    package: '@acme/schema-types',
  },
  { prettier: true },
  { prettier: false, report: 'json' },
];

const invalid: Record<string, unknown>[] = [
  { fromat: 'prettier' },
  { apiKey: 'literal' },
  { secret: 'literal' },
  { limit: 0 },
  { limit: 10001 },
  { limit: 2.5 },
  { retries: -1 },
  { timeout: 0 },
  { format: 'biome' },
  { format: 'json' },
  { prettier: 'yes' },
  { prettier: 1 },
  { report: 'xml' },
  { failOn: 'all' },
  { out: '' },
  { baseUrl: 42 },
  { cmd: 5 },
];

describe('config.schema.json', () => {
  it('is committed at the repository root and equals the one generated from the zod schema', async () => {
    const text = await readFile(new URL('config.schema.json', `file://${ROOT}`), 'utf8');
    expect(text).toBe(configJsonSchemaText());
  });

  it('describes every key of the zod schema, forbids others, and lists the enum values', async () => {
    const schema = await committed();
    expect(schema['$schema']).toBe('http://json-schema.org/draft-07/schema#');
    expect(schema['type']).toBe('object');
    expect(schema['additionalProperties']).toBe(false);
    const properties = schema['properties'] as Record<string, Schema>;
    expect(Object.keys(properties)).toEqual(Object.keys(configSchema.shape));
    for (const [key, property] of Object.entries(properties)) expect(property['description'], key).toEqual(expect.any(String));
    expect(properties['format']!['enum']).toEqual(['prettier', 'none']);
    expect(properties['format']!['description']).toMatch(/^Deprecated/);
    expect(properties['prettier']).toMatchObject({ type: 'boolean' });
    expect(properties['report']!['enum']).toEqual(['text', 'json', 'markdown', 'github']);
    expect(properties['failOn']!['enum']).toEqual(['any', 'breaking', 'broken']);
    expect(properties['limit']).toMatchObject({ type: 'integer', minimum: 1, maximum: 10000 });
    expect(properties).not.toHaveProperty('apiKey');
    expect(properties).not.toHaveProperty('secret');
  });

  it('accepts what the zod schema accepts (including the example of docs/configuration.md)', async () => {
    const schema = await committed();
    const section = await readFile(new URL('docs/configuration.md', `file://${ROOT}`), 'utf8');
    const example = JSON.parse(/```json\n([\s\S]*?)```/.exec(section)![1]!) as Record<string, unknown>;
    for (const sample of [...valid, example]) {
      expect(configSchema.safeParse(sample).success, JSON.stringify(sample)).toBe(true);
      expect(validate(schema, sample), JSON.stringify(sample)).toEqual([]);
    }
  });

  it('rejects what the zod schema rejects', async () => {
    const schema = await committed();
    for (const sample of invalid) {
      expect(configSchema.safeParse(sample).success, JSON.stringify(sample)).toBe(false);
      expect(validate(schema, sample), JSON.stringify(sample)).not.toEqual([]);
    }
  });

  it('is the same object the library exports', async () => {
    expect(await committed()).toEqual(configJsonSchema());
  });
});

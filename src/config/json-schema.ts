import { z } from 'zod';
import { configSchema } from './schema.js';

/** Where the JSON Schema lives inside the installed package, as `init` references it. */
export const CONFIG_SCHEMA_REF = './node_modules/schema-sync/config.schema.json';

/**
 * The JSON Schema of `schema-sync.config.json`, generated from the zod schema so the two never
 * disagree. Draft-07, which every editor understands; `additionalProperties: false` makes
 * editors flag unknown keys (and a literal `apiKey`) just as the CLI does.
 */
export function configJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(configSchema, { target: 'draft-07', io: 'input' }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return {
    $schema,
    title: 'schema-sync configuration',
    description:
      'schema-sync.config.json: every key is optional; flags override the environment, which overrides this file. ' +
      'The API key and secret never go here: use SCHEMA_SYNC_API_KEY / SCHEMA_SYNC_SECRET.',
    ...rest,
  };
}

/** The file's text exactly as committed at the repository root (`config.schema.json`). */
export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}

import { z } from 'zod';
import { acceptance, acceptList, settingsSchema } from './settings.js';

/** The settings as a config file gives them: an acceptance there has no other keys. */
const fileSettings = settingsSchema.extend({ accept: acceptList(acceptance.strict()) });

/**
 * `schema-sync.config.json` (or the default export of `schema-sync.config.mjs` / `.js`): the
 * settings a project commits (a pick of the settings schema), plus `$schema` and the deprecated
 * `format`. Every key is optional; flags override the environment, which overrides the file, which overrides the
 * defaults. Relative paths resolve against the config file's folder. The API key and secret are
 * deliberately not here: they come only from flags or the environment, so they never land in a
 * committed file.
 */
export const configSchema = z
  .object({
    /** JSON Schema reference for editors. */
    $schema: z.string().optional().describe('JSON Schema for editor completion.'),
    ...fileSettings.pick({ baseUrl: true, out: true, lockfile: true, cmd: true, msgType: true, pkey: true, limit: true, view: true, where: true, order: true, timeout: true, retries: true, maxBytes: true, prettier: true }).shape,
    /**
     * Code formatting of generated files.
     * @deprecated Use `"prettier": true` (for `"prettier"`) or `"prettier": false` (for `"none"`); read with a warning for one more release.
     */
    format: z
      .enum(['prettier', 'none'], {
        error: 'expected "prettier" or "none"; deprecated: use "prettier": true or false (the report format is the key "report")',
      })
      .optional()
      .describe('Deprecated, read with a warning for one more release: use "prettier": true instead of "prettier", "prettier": false instead of "none".'),
    ...fileSettings.pick({ report: true, failOn: true, impact: true, templates: true, fields: true, int64: true, package: true, packageVersion: true, target: true, moduleFormat: true, rules: true, accept: true, include: true, exclude: true }).shape,
  })
  .strict();

/** The parsed configuration file. */
export type SchemaSyncConfig = z.infer<typeof configSchema>;

/**
 * Types a `schema-sync.config.mjs` / `.js` without changing it: editors complete and check the
 * keys. `export default defineConfig({ baseUrl: 'https://…', out: 'src/generated/schema' });`
 */
export function defineConfig(config: SchemaSyncConfig): SchemaSyncConfig {
  return config;
}

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

import { z } from 'zod';
import { SETTING_ROWS } from './settings.js';
import type { SettingsTable } from './settings-table.js';

/** A row's doc as plain text, for config.schema.json: links as their text, no code marks. */
export function plainText(markdown: string): string {
  return markdown.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '');
}

/** What config.schema.json says of a key: its doc as a sentence, and its default. */
function description(row: (typeof SETTING_ROWS)[number]): string {
  const doc = plainText(row.doc);
  return `${doc.charAt(0).toUpperCase()}${doc.slice(1)}.${row.default === undefined ? '' : ` Default: ${plainText(row.default)}.`}`;
}

/** The keys a config file may hold: the rows whose `file` is not false. */
type FileKey = { [K in keyof SettingsTable]: SettingsTable[K] extends { file: false } ? never : K }[keyof SettingsTable];

/** The config file's shape of a key: its row's schema (or the file's stricter one), optional. */
type FileShape = { [K in FileKey]: z.ZodOptional<SettingsTable[K] extends { file: infer F extends z.ZodType } ? F : SettingsTable[K]['schema']> };

/**
 * The deprecated `format`, read with a warning for one more release: `"prettier": true` (for
 * `"prettier"`) or `"prettier": false` (for `"none"`) replaces it.
 */
const deprecatedFormat = z
  .enum(['prettier', 'none'], {
    error: 'expected "prettier" or "none"; deprecated: use "prettier": true or false (the report format is the key "report")',
  })
  .optional()
  .describe('Deprecated, read with a warning for one more release: use "prettier": true instead of "prettier", "prettier": false instead of "none".');

/** The config file's keys besides the settings: `$schema`, and the deprecated `format`. */
interface OwnKeys {
  $schema: z.ZodOptional<z.ZodString>;
  format: typeof deprecatedFormat;
}

/**
 * `schema-sync.config.json` (or the default export of `schema-sync.config.mjs` / `.js`): the
 * settings a project commits (the settings table's rows that are config keys, in its order, each
 * described by its row), plus `$schema` and the deprecated `format` (beside `prettier`, which
 * replaces it). Every key is optional; flags override the environment, which overrides the file,
 * which overrides the defaults. Relative paths resolve against the config file's folder. The API
 * key and secret are deliberately not here: they come only from flags or the environment, so they
 * never land in a committed file.
 */
export const configSchema = z
  .object(
    Object.fromEntries([
      ['$schema', z.string().optional().describe('JSON Schema for editor completion.')],
      ...SETTING_ROWS.flatMap((row) => [
        ...(row.file === false ? [] : [[row.key, (row.file ?? row.schema).optional().describe(description(row))]]),
        ...(row.key === 'prettier' ? [['format', deprecatedFormat]] : []),
      ]),
    ]) as OwnKeys & FileShape,
  )
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

import { z } from 'zod';
import { OUTPUT_TARGETS } from '../model/lockfile.js';
import { PACKAGE_VERSION } from '../emit/package-version.js';
import { REPORT_FORMATS } from '../diff/types.js';
import { RULE_IDS, RULE_LEVELS, unknownRuleProblem } from '../diff/rules.js';

/** A drift rule id (`schema-sync rules` lists them); a typo is refused with the closest id. */
const ruleId = z
  .string()
  .superRefine((id, ctx) => {
    const problem = unknownRuleProblem(id);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({ enum: [...RULE_IDS] });

/** One entry of config `accept`. */
const acceptance = z.object({
  rule: ruleId.describe('The rule id of the change (see `schema-sync rules`).'),
  message: z.string({ error: 'a message-name glob is required' }).min(1, { error: 'a message-name glob is required' }).describe('Glob of the message name: * any characters, ? one.'),
  reason: z
    .string({ error: 'a reason is required: say why the change is fine' })
    .trim()
    .min(1, { error: 'a reason is required: say why the change is fine' })
    .describe('Why the change is fine (required; shown in every report).'),
  before: z.unknown().optional().describe('When given, the value before must be exactly this.'),
  after: z.unknown().optional().describe('When given, the value after must be exactly this.'),
});

/** Config `accept`, of strict entries (a config file) or entries that may carry more keys (a library caller). */
const acceptList = (entry: typeof acceptance) =>
  z.array(entry).optional().describe('Accepted changes: { rule, message (name glob), reason, before?, after? }. Never fail check or diff; listed in every report.');

/**
 * Config `rules` and `accept`, which the library's review options share: one schema refuses a bad
 * policy from a config file and from a library caller alike.
 */
export const reviewSchema = z.object({
  /**
   * Severity per drift rule id (`schema-sync rules` lists them), or `off` to drop the rule's
   * changes from reports and failing. @example { "SCHEMA_HASH_CHANGED": "safe" }
   */
  rules: z
    .record(ruleId, z.enum(RULE_LEVELS, { error: `expected ${RULE_LEVELS.slice(0, -1).join(', ')} or ${RULE_LEVELS.at(-1)}` }))
    .optional()
    .describe('Severity per drift rule id (see `schema-sync rules`): breaking, dangerous, safe, or off (dropped from reports and failing).'),
  /**
   * Changes reviewed and accepted: keyed on the rule id AND a message-name glob, optionally
   * pinned to the exact before/after values (the acceptance then expires when the change
   * differs). They never fail check or diff and are listed in every report with the reason.
   */
  accept: acceptList(acceptance),
});

/** What a zod issue says; a record key's own problems (an unknown rule id) say more than "Invalid key in record". */
export function issueMessage(issue: z.core.$ZodIssue): string {
  return issue.code === 'invalid_key' ? issue.issues.map((inner) => inner.message).join('; ') : issue.message;
}

/** An `include` / `exclude` entry: a message-name glob, or a token glob. */
const scopeRule = z.union([
  z.string().min(1).describe('Message-name glob: * any characters, ? one.'),
  z.object({ mToken: z.string().min(1).describe('Token glob: * any characters, ? one.') }).strict(),
]);

/**
 * `schema-sync.config.json` (or the default export of `schema-sync.config.mjs` / `.js`). Every key
 * is optional; flags override the environment, which overrides the file, which overrides the
 * defaults. Relative paths resolve against the config file's folder. The API key and secret are
 * deliberately not here: they come only from flags or the environment, so they never land in a
 * committed file.
 */
export const configSchema = z
  .object({
    /** JSON Schema reference for editors. */
    $schema: z.string().optional().describe('JSON Schema for editor completion.'),
    /** Base URL of the service; `/rest/proto` is appended. @example "https://schemas.example.com" */
    baseUrl: z
      .url({ protocol: /^https?$/, error: 'expected an absolute http(s) URL, e.g. "https://schemas.example.com"' })
      .optional()
      .describe('Base URL of the service; /rest/proto is appended. Env SCHEMA_SYNC_BASE_URL and --base-url override it.'),
    /** Output folder for the generated TypeScript, relative to the config file's folder. @default "src/generated/schema" */
    out: z.string().min(1).optional().describe("Output folder for the generated TypeScript, relative to this file's folder. Default: src/generated/schema"),
    /** Lockfile path, relative to the config file's folder. @default "schema-sync.lock.json" */
    lockfile: z.string().min(1).optional().describe("Lockfile path, relative to this file's folder. Default: schema-sync.lock.json"),
    /** Query parameter `cmd`. @example "getmsgtypes" */
    cmd: z.string().optional().describe('Query parameter cmd, e.g. getmsgtypes.'),
    /** Query parameter `msgType`: one message type by name or number. */
    msgType: z.string().optional().describe('Query parameter msgType: one message type by name or number.'),
    /** Query parameter `pkey`. */
    pkey: z.string().optional().describe('Query parameter pkey.'),
    /** Query parameter `limit`: an integer 1..10000. */
    limit: z.number().int().min(1).max(10_000).optional().describe('Query parameter limit: an integer 1..10000.'),
    /** Query parameter `view`. */
    view: z.string().optional().describe('Query parameter view.'),
    /** Query parameter `where`. @example "mToken:ne:SystemData" */
    where: z.string().optional().describe('Query parameter where, e.g. mToken:ne:SystemData.'),
    /** Query parameter `order`. */
    order: z.string().optional().describe('Query parameter order.'),
    /** Milliseconds for one request, body included. @default 30000 */
    timeout: z.number().int().positive().optional().describe('Milliseconds for one request. Default: 30000'),
    /** Retries on connection errors, 429, 502, 503, 504. @default 3 */
    retries: z.number().int().min(0).max(10).optional().describe('Retries on connection errors, 429, 502, 503, 504. Default: 3'),
    /** Most bytes of the answer, once decompressed (or of `--input`), read before the run fails. @default 268435456 (256 MiB) */
    maxBytes: z.number().int().positive().optional().describe('Most bytes of the answer, once decompressed (or of --input), read before the run fails. Default: 268435456 (256 MiB)'),
    /**
     * Format the generated files with prettier (its config resolved from the output folder);
     * `--prettier` / `--no-prettier` override it. Unset, the setting the lockfile records holds.
     * @default false (nothing recorded yet)
     */
    prettier: z
      .boolean()
      .optional()
      .describe('Format the generated files with prettier (config resolved from the output folder). --prettier / --no-prettier override it. Unset: as the lockfile records, else false.'),
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
    /** Report format of pull, check and diff. @default "text" */
    report: z.enum(REPORT_FORMATS).optional().describe('Report format of pull, check and diff. Default: text'),
    /** Which drift makes `check` and `diff` exit 1. @default "any" */
    failOn: z.enum(['any', 'breaking']).optional().describe('Which drift makes check and diff exit 1. Default: any'),
    /** Folder whose templates override the built-in ones (banner.txt, package-readme.md), relative to the config file's folder. */
    templates: z.string().optional().describe("Folder whose templates override the built-in ones, relative to this file's folder."),
    /**
     * Fetch each message type's field descriptors (`cmd=getschema`, only for types whose
     * `schemaHash` is new or changed), record them in the lockfile and generate a record
     * interface per type; `--fields` / `--no-fields` override it. Unset, the setting the lockfile
     * records holds.
     * @default false (nothing recorded yet)
     */
    fields: z
      .boolean()
      .optional()
      .describe('Fetch field descriptors (cmd=getschema, only for types whose schemaHash is new or changed), record them in the lockfile and generate record types. --fields / --no-fields override it. Unset: as the lockfile records, else false.'),
    /** Also write package.json, README.md and CHANGELOG.md so the folder can be consumed as this package. */
    package: z.string().optional().describe('Package name: also write package.json, README.md and CHANGELOG.md into the output folder.'),
    /**
     * The package's version; unset, the recorded one, which each pull that changes the listing
     * bumps (1.0.0 at first). A pinned version is never bumped.
     */
    packageVersion: z
      .string()
      .regex(PACKAGE_VERSION, 'expected a version x.y.z, e.g. "2.0.0"')
      .optional()
      .describe("The package's version x.y.z. Unset: as the lockfile records (1.0.0 at first), bumped by each pull that changes the listing."),
    /** What the output is written as. @default "js+dts" with a package, else "ts" (or as recorded) */
    target: z
      .enum(OUTPUT_TARGETS)
      .optional()
      .describe('Write TypeScript modules (ts) or ES modules with declaration files (js+dts). Unset: as the lockfile records, else js+dts for a package and ts otherwise.'),
    ...reviewSchema.shape,
    /** Changes reviewed and accepted (`reviewSchema`); a config file's entries have no other keys. */
    accept: acceptList(acceptance.strict()),
    /** Generate and watch only the message types matching one of these (recorded in the lockfile; `[]` clears it). */
    include: z
      .array(scopeRule)
      .optional()
      .describe('Generate and watch only message types matching one of these: name globs or { "mToken": "…" }. Recorded in the lockfile; [] clears it.'),
    /** Leave out the message types matching one of these (recorded in the lockfile; `[]` clears it). */
    exclude: z
      .array(scopeRule)
      .optional()
      .describe('Leave out message types matching one of these: name globs or { "mToken": "…" }. They stay in the lockfile. Recorded; [] clears it.'),
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

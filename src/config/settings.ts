import { z } from 'zod';
import { INT64_TYPES, MODULE_FORMATS, OUTPUT_TARGETS } from '../model/lockfile.js';
import { PACKAGE_VERSION } from '../emit/package-version.js';
import { REPORT_FORMATS } from '../diff/types.js';
import { RULE_IDS, RULE_LEVELS, unknownRuleProblem, type RuleId } from '../diff/rules.js';

/** A drift rule id (`schema-sync rules` lists them); a typo is refused with the closest id. */
const ruleId = z
  .string()
  .superRefine((id, ctx) => {
    const problem = unknownRuleProblem(id);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({ enum: [...RULE_IDS] });

/** The rule ids as zod's enum takes them. */
const RULE_IDS_TUPLE = RULE_IDS as readonly [RuleId, ...RuleId[]];

/** One entry of `accept`. */
export const acceptance = z.object({
  rule: z.enum(RULE_IDS_TUPLE, { error: (issue) => unknownRuleProblem(String(issue.input)) }).describe('The rule id of the change (see `schema-sync rules`).'),
  message: z.string({ error: 'a message-name glob is required' }).min(1, { error: 'a message-name glob is required' }).describe('Glob of the message name: * any characters, ? one.'),
  reason: z
    .string({ error: 'a reason is required: say why the change is fine' })
    .trim()
    .min(1, { error: 'a reason is required: say why the change is fine' })
    .describe('Why the change is fine (required; shown in every report).'),
  before: z.unknown().optional().describe('When given, the value before must be exactly this.'),
  after: z.unknown().optional().describe('When given, the value after must be exactly this.'),
});

/** `accept`, of strict entries (a config file) or entries that may carry more keys (a library caller). */
export const acceptList = (entry: typeof acceptance) =>
  z.array(entry).optional().describe('Accepted changes: { rule, message (name glob), reason, before?, after? }. Never fail check or diff; listed in every report.');

/** An `include` / `exclude` entry: a message-name glob, or a token glob. */
const scopeRule = z.union([
  z.string().min(1).describe('Message-name glob: * any characters, ? one.'),
  z.object({ mToken: z.string().min(1).describe('Token glob: * any characters, ? one.') }).strict(),
]);

/**
 * Every setting of schema-sync, in one shape: the config file, the environment and the flags each
 * give a part of it, merged once (flag > environment > file > default, see `merge-settings.ts`),
 * and the library's `pull`, `check` and `generate` take it as their options. Each key's bounds
 * and messages are stated here once, so a flag is refused exactly as its config key is. Which keys
 * a config file may hold is `configSchema`'s pick; the lockfile records the generation settings.
 */
export const settingsSchema = z.object({
  /** Base URL of the service; `/rest/proto` is appended. @example "https://schemas.example.com" */
  baseUrl: z
    .url({ protocol: /^https?$/, error: 'expected an absolute http(s) URL, e.g. "https://schemas.example.com"' })
    .optional()
    .describe('Base URL of the service; /rest/proto is appended. Env SCHEMA_SYNC_BASE_URL and --base-url override it.'),
  /** A saved `/rest/proto` response to read instead of the network (`-` = standard input). */
  input: z.string().min(1).optional().describe('A saved /rest/proto response to read instead of the network (- for standard input).'),
  /** API key: from a flag or the environment only (never recorded, always redacted). */
  apiKey: z.string().optional().describe('API key (never recorded, always redacted).'),
  /** Secret: from a flag or the environment only (never recorded, always redacted). */
  secret: z.string().optional().describe('Secret (never recorded, always redacted).'),
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
  /** Most bytes of the answer, once decompressed (or of `--input`), read before the run fails. @default 33554432 (32 MiB) */
  maxBytes: z.number().int().positive().optional().describe('Most bytes of the answer, once decompressed (or of --input), read before the run fails. Default: 33554432 (32 MiB)'),
  /** Accept a listing that fills `limit`. @default false */
  allowTruncated: z.boolean().optional().describe('Accept a listing that fills limit.'),
  /**
   * Format the generated files with prettier (its config resolved from the output folder);
   * `--prettier` / `--no-prettier` override it. Unset, the setting the lockfile records holds.
   * @default false (nothing recorded yet)
   */
  prettier: z
    .boolean()
    .optional()
    .describe('Format the generated files with prettier (config resolved from the output folder). --prettier / --no-prettier override it. Unset: as the lockfile records, else false.'),
  /** Report format of pull, check and diff. @default "text" */
  report: z.enum(REPORT_FORMATS).optional().describe('Report format of pull, check and diff. Default: text'),
  /** Which drift makes `check` and `diff` exit 1. @default "any" */
  failOn: z
    .enum(['any', 'breaking', 'broken'])
    .optional()
    .describe('Which drift makes check and diff exit 1: any, breaking, or broken (a change breaks the compile of an --impact project). Default: any'),
  /**
   * TypeScript projects (tsconfig files, relative to the config file's folder) that `check`,
   * `diff` and `pull --dry-run` type-check against the old and the new generated output, to say
   * which changes break them and where (drift impact). Nothing is written.
   * @example ["tsconfig.json", "packages/app/tsconfig.json"]
   */
  impact: z
    .array(z.string().min(1))
    .optional()
    .describe("TypeScript projects (tsconfig files, relative to this file's folder) that check, diff and pull --dry-run type-check against the new generated output, to report which changes break them."),
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
  /**
   * How the record types (with `fields`) type `Long` and `ULong` fields, 64-bit integers that go
   * beyond 2^53 in real records (nanosecond timestamps): `number`, as `JSON.parse` reads them,
   * losing precision there; `bigint` or `string`, for records read with a JSON parser that keeps
   * big integers (e.g. lossless-json, json-bigint). Unset, the setting the lockfile records holds.
   * @default "number" (nothing recorded yet)
   * @example "bigint"
   */
  int64: z
    .enum(INT64_TYPES)
    .optional()
    .describe('How record types (fields) type Long and ULong fields: number (JSON.parse; loses precision beyond 2^53), bigint or string (a JSON parser that keeps big integers). Unset: as the lockfile records, else number.'),
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
  /**
   * The module format of the generated TypeScript in the project that compiles it: `esm` (`.ts`
   * ES modules; the folder's own package.json says `"type": "module"`), `commonjs` (the same
   * `.ts` files, the folder's package.json says `"type": "commonjs"`, so TypeScript compiles them
   * to `require`/`exports` and the compiled files run from any `outDir`: for a CommonJS project,
   * `module: commonjs` or `node16`/`nodenext` without `verbatimModuleSyntax`), or `mts` (`.mts` ES
   * modules, compiled to `.mjs`, which stay ES modules in any `outDir`: for a CommonJS project
   * under `nodenext` with `verbatimModuleSyntax`, whose code imports them with
   * `import x = require('…/index.mjs')`). `schema-sync init` detects it from the project's
   * tsconfig and package.json. The `js+dts` target is ES modules whatever this says. Unset, the
   * setting the lockfile records holds.
   * @default "esm" (nothing recorded yet)
   * @example "commonjs"
   */
  moduleFormat: z
    .enum(MODULE_FORMATS)
    .optional()
    .describe('Module format of the generated TypeScript in the project that compiles it: esm (.ts; the folder\'s package.json says "type": "module"), commonjs (.ts, "type": "commonjs": tsc compiles them to require/exports, which run from any outDir; not with verbatimModuleSyntax) or mts (.mts ES modules, compiled to .mjs: for nodenext with verbatimModuleSyntax in a CommonJS package). schema-sync init detects it. Unset: as the lockfile records, else esm.'),
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
  /** Milliseconds to wait for another run on the same output folder. @default 30000 */
  lockWait: z.number().int().min(0).optional().describe('Milliseconds to wait for another run on the same output folder. Default: 30000'),
  /** Show what would change and write nothing (`pull`). @default false */
  dryRun: z.boolean().optional().describe('Show what would change; write nothing.'),
  /** Accept an empty listing while the lockfile has types (`pull`). @default false */
  allowEmpty: z.boolean().optional().describe('Accept an empty listing while types are locked.'),
  /** Accept a pull that removes more than half of the locked types. @default false */
  force: z.boolean().optional().describe('Accept a pull that removes more than half of the locked types.'),
});

/** Every setting (see {@link settingsSchema}); each one optional, a default applying where none is given. */
export type Settings = z.infer<typeof settingsSchema>;

/** The name of a setting. */
export type SettingKey = keyof Settings;

/** Config `rules` and `accept`, which the library's review options share: one schema refuses a bad policy from a config file and from a library caller alike. */
export const reviewSchema = settingsSchema.pick({ rules: true, accept: true });

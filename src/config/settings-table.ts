import { z } from 'zod';
import { INT64_TYPES, MODULE_FORMATS, OUTPUT_TARGETS, defaultTarget } from '../model/lockfile.js';
import { assertPackageVersion, PACKAGE_VERSION } from '../emit/package-version.js';
import { REPORT_FORMATS } from '../diff/types.js';
import { RULE_LEVELS } from '../diff/rules.js';
import { acceptance, ruleId, scopeRule, wholeNumber } from './setting-values.js';

/**
 * The settings of schema-sync, one row each: the one place a setting is written down. Everything
 * else is derived from this table where it is used: the settings schema and the `Settings` type
 * (`settings.ts`), the config file's schema and `config.schema.json` (`schema.ts`), the key table
 * of docs/configuration.md (`key-table.ts`), the merge of flags over the environment over the
 * file over the defaults (`merge-settings.ts`), the flags of the CLI (`cli/flags.ts`), the
 * library's option types (`run/options.ts`), the generation settings the lockfile records, their
 * lockfile schema and what `check` reports as "settings differ" (`model/lockfile.ts`,
 * `lock/settings-record.ts`, `run/run-context.ts`).
 *
 * Nothing is derived in this module, only where it is used: a test that adds a row
 * (test/config/settings-table.test.ts) replaces this module's table alone. The rows' order is
 * the order of `--help`'s flags, of the config schema's keys and of the docs' key table.
 */

/**
 * The parts of a run that take a setting, which decide the library's option types and the CLI's
 * flags of each command: `source` (where the listing comes from: `pull`, `check`; the flags'
 * `Source:` group), `output` (the output folder, the lockfile and the generated code: `pull`,
 * `check`, `generate`; the `Output:` group), `pull` (`pull` alone), `review` (how a report rates
 * and accepts changes), `impact` (the projects a report type-checks), `report` (the CLI's report:
 * its format and exit code).
 */
export type Stage = 'source' | 'output' | 'pull' | 'review' | 'impact' | 'report';

/** How the lockfile records a generation setting (one a run's output depends on). */
export interface Recorded {
  /** The lockfile's key, when it is not the setting's (the lockfile format is older than the table). */
  readonly as?: string;
  /** What a recorded value must be, when it is narrower than the setting's schema. */
  readonly schema?: z.ZodType;
  /**
   * The value that is not recorded (the default the output is made with when nothing is
   * recorded), so that the record holds one spelling of each output; a function of the settings
   * recorded so far, in the table's order, when the default depends on them.
   */
  readonly unrecorded?: unknown;
  /** A path: recorded relative to the lockfile's folder (posix separators), not to where it was given. */
  readonly path?: true;
}

/** A setting's flag: `--` and the key in kebab case (`maxBytes`: `--max-bytes`), unless `name` says otherwise. */
export interface FlagColumn {
  /** What `--help` says of it. */
  readonly describe: string;
  /** The flag's name without dashes, when it is not the key's. */
  readonly name?: string;
  /** A path: given as a flag, it resolves against the working directory (`-` stays standard input). */
  readonly path?: true;
  /** Takes a list, one value each time the flag is typed (`--impact a --impact b`). */
  readonly repeatable?: true;
  /** An enum flag that yargs reads as text (its choices checked all the same). */
  readonly text?: true;
  /** The library's own check of the value, run first: a problem it words (naming the value) is told in those words. */
  readonly check?: (value: string) => void;
}

/** One setting. */
export interface SettingRow {
  /** The value's schema: its bounds and messages, the same for a flag, a variable, a config key and a library option. */
  readonly schema: z.ZodType;
  /** What it does, in markdown: the docs' key table and (as plain text) config.schema.json's description. */
  readonly doc: string;
  /** The docs' type column, when the schema's kind does not say it (a string, a boolean, an enum, a whole number do). */
  readonly type?: string;
  /** The docs' default column (markdown): the default, or what holds when it is not given. */
  readonly default?: string;
  /** The value the CLI's merge gives when no flag, variable or file does (none: the library's default, or as recorded). */
  readonly fallback?: unknown;
  /** The parts of a run that take it. */
  readonly takes: readonly Stage[];
  /** A config file key (the default), not one (`false`: a secret, or what only one run asks), or one with a stricter schema there. */
  readonly file?: false | z.ZodType;
  /** The environment variable that gives it. */
  readonly variable?: string;
  /** Its flag. */
  readonly flag?: FlagColumn;
  /** A generation setting: the lockfile records it, and `check` reports when a run is given another. */
  readonly recorded?: Recorded;
}

/** The strictness of a row: kept as typed (`as const`), so each key's schema is its own. */
function row<const R extends SettingRow>(definition: R): R {
  return definition;
}

export const SETTINGS = {
  /** Base URL of the service; `/rest/proto` is appended. @example "https://schemas.example.com" */
  baseUrl: row({
    schema: z.url({ protocol: /^https?$/, error: 'expected an absolute http(s) URL, e.g. "https://schemas.example.com"' }),
    doc: 'the service; `/rest/proto` is appended. No credentials in it',
    type: 'http(s) URL',
    takes: ['source'],
    variable: 'SCHEMA_SYNC_BASE_URL',
    flag: { describe: 'Service base URL (env SCHEMA_SYNC_BASE_URL); /rest/proto is appended' },
  }),
  /** A saved `/rest/proto` response to read instead of the network (`-` = standard input). */
  input: row({
    schema: z.string().min(1),
    doc: 'a saved `/rest/proto` response to read instead of the network (`-` for standard input)',
    takes: ['source'],
    file: false,
    flag: { describe: 'Read a saved /rest/proto response (file, or - for stdin) instead of the network', path: true },
  }),
  /** API key: from a flag or the environment only (never recorded, always redacted). */
  apiKey: row({
    schema: z.string(),
    doc: 'API key (never recorded, always redacted)',
    takes: ['source'],
    file: false,
    variable: 'SCHEMA_SYNC_API_KEY',
    flag: { describe: 'API key (prefer env SCHEMA_SYNC_API_KEY); never printed or stored' },
  }),
  /** Secret: from a flag or the environment only (never recorded, always redacted). */
  secret: row({
    schema: z.string(),
    doc: 'secret (never recorded, always redacted)',
    takes: ['source'],
    file: false,
    variable: 'SCHEMA_SYNC_SECRET',
    flag: { describe: 'Secret (prefer env SCHEMA_SYNC_SECRET); never printed or stored' },
  }),
  /** Output folder for the generated TypeScript, relative to the config file's folder. @default "src/generated/schema" */
  out: row({
    schema: z.string().min(1),
    doc: "output folder of the generated TypeScript, relative to the config file's folder",
    default: '`src/generated/schema`',
    takes: ['output'],
    flag: { describe: 'Output folder (default src/generated/schema)', path: true },
  }),
  /** Lockfile path, relative to the config file's folder. @default "schema-sync.lock.json" */
  lockfile: row({
    schema: z.string().min(1),
    doc: "lockfile path, relative to the config file's folder",
    default: '`schema-sync.lock.json`',
    takes: ['output'],
    flag: { describe: 'Lockfile (default schema-sync.lock.json)', path: true },
  }),
  /** Query parameter `cmd`. @example "getmsgtypes" */
  cmd: row({ schema: z.string(), doc: 'query parameter `cmd`, e.g. `getmsgtypes`', takes: ['source'], flag: { describe: 'Query parameter cmd, e.g. getmsgtypes' } }),
  /** Query parameter `msgType`: one message type by name or number. */
  msgType: row({ schema: z.string(), doc: 'query parameter `msgType`: one message type by name or number', takes: ['source'], flag: { describe: 'Query parameter msgType (name or number)' } }),
  /** Query parameter `pkey`. */
  pkey: row({ schema: z.string(), doc: 'query parameter `pkey`', takes: ['source'], flag: { describe: 'Query parameter pkey' } }),
  /** Query parameter `limit`: a whole number from 1 to 10000. */
  limit: row({
    schema: wholeNumber({ min: 1, max: 10_000 }),
    doc: 'query parameter `limit`; a listing that fills it is an error unless `--allow-truncated`',
    takes: ['source'],
    flag: { describe: 'Query parameter limit (1..10000)' },
  }),
  /** Query parameter `view`. */
  view: row({ schema: z.string(), doc: 'query parameter `view`', takes: ['source'], flag: { describe: 'Query parameter view' } }),
  /** Query parameter `where`. @example "mToken:ne:SystemData" */
  where: row({ schema: z.string(), doc: 'query parameter `where`, e.g. `mToken:ne:SystemData`', takes: ['source'], flag: { describe: 'Query parameter where, e.g. mToken:ne:SystemData' } }),
  /** Query parameter `order`. */
  order: row({ schema: z.string(), doc: 'query parameter `order`', takes: ['source'], flag: { describe: 'Query parameter order' } }),
  /** Milliseconds for one request, body included. @default 30000 */
  timeout: row({
    schema: wholeNumber({ min: 1, unit: 'milliseconds' }),
    doc: 'time for one request, body included',
    default: '`30000`',
    takes: ['source'],
    flag: { describe: 'Milliseconds for one request (default 30000)' },
  }),
  /** Retries on connection errors, 429, 502, 503, 504. @default 3 */
  retries: row({
    schema: wholeNumber({ min: 0, max: 10 }),
    doc: 'retries on connection errors, timeouts, 429, 502, 503, 504',
    default: '`3`',
    takes: ['source'],
    flag: { describe: 'Retries on connection errors, 429, 502-504 (default 3)' },
  }),
  /** Most bytes of the answer, once decompressed (or of `--input`), read before the run fails. @default 33554432 (32 MiB) */
  maxBytes: row({
    schema: wholeNumber({ min: 1, unit: 'bytes' }),
    doc: 'most bytes of the answer, once decompressed (or of `--input`), read before the run fails',
    default: '`33554432` (32 MiB)',
    takes: ['source'],
    flag: { describe: 'Most bytes of answer (decompressed) or --input read (default 33554432, 32 MiB)' },
  }),
  /** Accept a listing that fills `limit`. @default false */
  allowTruncated: row({ schema: z.boolean(), doc: 'accept a listing that fills `limit`', takes: ['source'], file: false, flag: { describe: 'Accept a listing that fills --limit' } }),
  /**
   * Format the generated files with prettier (its config resolved from the output folder);
   * `--prettier` / `--no-prettier` override it. Unset, the setting the lockfile records holds.
   * @default false (nothing recorded yet)
   */
  prettier: row({
    schema: z.boolean(),
    doc: 'format the generated files with prettier (config from the output folder)',
    default: 'as recorded in the lockfile, else `false`',
    takes: ['output'],
    flag: { describe: 'Format the generated code with prettier (or --no-prettier)' },
    recorded: { unrecorded: false },
  }),
  /** Report format of pull, check and diff. @default "text" */
  report: row({
    schema: z.enum(REPORT_FORMATS),
    doc: 'report format of `pull`, `check` and `diff`',
    default: '`text`',
    fallback: 'text',
    takes: ['report'],
    flag: { describe: 'Report format: text (default), json, markdown or github', name: 'format' },
  }),
  /** Which drift makes `check` and `diff` exit 1. @default "any" */
  failOn: row({
    schema: z.enum(['any', 'breaking', 'broken']),
    doc: 'which drift makes `check` and `diff` exit 1 (`broken`: a change breaks the compile of an `impact` project)',
    default: '`any`',
    fallback: 'any',
    takes: ['report'],
    flag: { describe: 'Which drift exits 1 (default any)' },
  }),
  /**
   * TypeScript projects (tsconfig files, relative to the config file's folder) that `check`,
   * `diff` and `pull --dry-run` type-check against the old and the new generated output, to say
   * which changes break them and where (drift impact). Nothing is written.
   * @example ["tsconfig.json", "packages/app/tsconfig.json"]
   */
  impact: row({
    schema: z.array(z.string().min(1)),
    doc: 'TypeScript projects (tsconfig files, relative to the config file) that `check`, `diff` and `pull --dry-run` type-check against the new generated output: [drift impact](commands.md#drift-impact-which-lines-of-your-code-a-change-breaks)',
    type: 'array of paths',
    default: 'none',
    takes: ['impact'],
    flag: {
      describe: 'Type-check this TypeScript project (tsconfig) against the new generated output and report which changes break it (repeatable; nothing is written)',
      repeatable: true,
      path: true,
    },
  }),
  /** Folder whose templates override the built-in ones (banner.txt, package-readme.md), relative to the config file's folder. */
  templates: row({
    schema: z.string(),
    doc: "folder whose `banner.txt` / `package-readme.md` override the built-in templates, relative to the config file's folder",
    default: 'built-in',
    takes: ['output'],
    flag: { describe: 'Folder overriding the built-in templates', path: true },
    recorded: { schema: z.string().min(1), path: true },
  }),
  /**
   * Fetch each message type's field descriptors (`cmd=getschema`, only for types whose
   * `schemaHash` is new or changed), record them in the lockfile and generate a record
   * interface per type; `--fields` / `--no-fields` override it. Unset, the setting the lockfile
   * records holds.
   * @default false (nothing recorded yet)
   */
  fields: row({
    schema: z.boolean(),
    doc: 'fetch the field descriptors (`cmd=getschema`, only for types whose `schemaHash` is new or changed), record them in the lockfile and generate record types',
    default: 'as recorded in the lockfile, else `false`',
    takes: ['output'],
    flag: { describe: 'Fetch field descriptors (getschema) of new or changed types and generate record types (or --no-fields)' },
    recorded: { unrecorded: false },
  }),
  /**
   * How the record types (with `fields`) type `Long` and `ULong` fields, 64-bit integers that go
   * beyond 2^53 in real records (nanosecond timestamps): `number`, as `JSON.parse` reads them,
   * losing precision there; `bigint` or `string`, for records read with a JSON parser that keeps
   * big integers (e.g. lossless-json, json-bigint). Unset, the setting the lockfile records holds.
   * @default "number" (nothing recorded yet)
   * @example "bigint"
   */
  int64: row({
    schema: z.enum(INT64_TYPES),
    doc: 'how the record types type `Long` and `ULong` fields: `number` (as `JSON.parse` reads them, losing precision beyond 2^53), or `bigint` / `string` for a JSON parser that keeps big integers; recorded',
    default: 'as recorded in the lockfile, else `number`',
    takes: ['output'],
    flag: { describe: 'How record types type Long and ULong fields: number (default; loses precision beyond 2^53), bigint or string', text: true },
    recorded: { unrecorded: 'number' },
  }),
  /** Also write package.json, README.md and CHANGELOG.md so the folder can be consumed as this package. */
  package: row({
    schema: z.string(),
    doc: 'also write `package.json`, `README.md` and `CHANGELOG.md` into the output folder under this package name',
    takes: ['output'],
    flag: { describe: 'Also write package.json, README.md and CHANGELOG.md for this package name' },
    recorded: { as: 'packageName', schema: z.string().min(1) },
  }),
  /**
   * The package's version; unset, the recorded one, which each pull that changes the listing
   * bumps (1.0.0 at first). A pinned version is never bumped.
   */
  packageVersion: row({
    schema: z.string().regex(PACKAGE_VERSION, 'expected a version x.y.z, e.g. "2.0.0"'),
    doc: "the package's version, set explicitly (a pinned version is never bumped)",
    type: '`x.y.z`',
    default: 'as recorded, else `1.0.0`; bumped by each pull that changes the listing',
    takes: ['output'],
    flag: { describe: "The package's version x.y.z (default: as recorded, bumped by each pull that changes the listing)", check: assertPackageVersion },
    recorded: {},
  }),
  /** What the output is written as. @default "js+dts" with a package, else "ts" (or as recorded) */
  target: row({
    schema: z.enum(OUTPUT_TARGETS),
    doc: 'write TypeScript modules, or ES modules with declaration files',
    default: 'as recorded, else `js+dts` with a package, `ts` without',
    takes: ['output'],
    flag: { describe: 'Write TypeScript (ts), or ES modules with declarations (js+dts; default for a package)', text: true },
    recorded: { unrecorded: (recorded: { package?: string }) => defaultTarget(recorded.package) },
  }),
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
  moduleFormat: row({
    schema: z.enum(MODULE_FORMATS),
    doc: "what the project's `tsc` makes of the generated TypeScript: `esm` (`.ts`, the folder's package.json says `\"type\": \"module\"`), `commonjs` (`.ts` compiled to CommonJS, which runs from any `outDir`: `module: commonjs`, or `node16`/`nodenext` without `verbatimModuleSyntax` in a CommonJS package), `mts` (`.mts` ES modules compiled to `.mjs`: `nodenext` with `verbatimModuleSyntax` in a CommonJS package, imported with `import x = require('…/index.mjs')`); recorded",
    default: "as recorded, else `esm`; `init` detects it from the project's tsconfig and package.json",
    takes: ['output'],
    flag: { describe: 'Module format of the generated TypeScript in your build: esm (default), commonjs (tsc compiles it to require/exports) or mts (.mts ES modules)', text: true },
    recorded: { unrecorded: 'esm' },
  }),
  /**
   * Severity per drift rule id (`schema-sync rules` lists them), or `off` to drop the rule's
   * changes from reports and failing. @example { "SCHEMA_HASH_CHANGED": "safe" }
   */
  rules: row({
    schema: z.partialRecord(ruleId, z.enum(RULE_LEVELS, { error: `expected ${RULE_LEVELS.slice(0, -1).join(', ')} or ${RULE_LEVELS.at(-1)}` })),
    doc: "severity per drift rule id (`schema-sync rules`, [drift rules](rules.md#overriding-severities-accepting-changes-narrowing-the-scope)); `off` drops the rule's changes from reports and failing",
    type: '`{ "<RULE_ID>": "breaking" | "dangerous" | "safe" | "off" }`',
    default: "each rule's default",
    takes: ['review'],
  }),
  /**
   * Changes reviewed and accepted: keyed on the rule id AND a message-name glob, optionally
   * pinned to the exact before/after values (the acceptance then expires when the change
   * differs). They never fail check or diff and are listed in every report with the reason.
   */
  accept: row({
    schema: z.array(acceptance),
    doc: 'accepted changes: rule id and message-name glob, a required reason, optionally pinned to the exact before/after values; never fail, listed in every report',
    type: '`[{ "rule", "message", "reason", "before"?, "after"? }]`',
    takes: ['review'],
    // An acceptance in a file has no other keys (a library caller's may carry more).
    file: z.array(acceptance.strict()),
  }),
  /** Generate and watch only the message types matching one of these (recorded in the lockfile; `[]` clears it). */
  include: row({
    schema: z.array(scopeRule),
    doc: 'generate and watch only these message types; recorded in the lockfile (`[]` clears it)',
    type: '`[glob | { "mToken": glob }]`',
    default: 'every type',
    takes: ['output'],
    recorded: { schema: z.array(scopeRule).min(1), unrecorded: [] },
  }),
  /** Leave out the message types matching one of these (recorded in the lockfile; `[]` clears it). */
  exclude: row({
    schema: z.array(scopeRule),
    doc: 'leave these message types out (they stay in the lockfile); recorded in the lockfile (`[]` clears it)',
    type: '`[glob | { "mToken": glob }]`',
    default: 'none',
    takes: ['output'],
    recorded: { schema: z.array(scopeRule).min(1), unrecorded: [] },
  }),
  /** Milliseconds to wait for another run on the same output folder. @default 30000 */
  lockWait: row({
    schema: wholeNumber({ min: 0, unit: 'milliseconds' }),
    doc: 'time to wait for another run on the same output folder',
    default: '`30000`',
    takes: ['output'],
    file: false,
    flag: { describe: 'Milliseconds to wait for another run on the same output folder (default 30000)' },
  }),
  /** Show what would change and write nothing (`pull`). @default false */
  dryRun: row({ schema: z.boolean(), doc: 'show what would change; write nothing', takes: ['pull'], file: false, flag: { describe: 'Show what would change; write nothing' } }),
  /** Accept an empty listing while the lockfile has types (`pull`). @default false */
  allowEmpty: row({ schema: z.boolean(), doc: 'accept an empty listing while types are locked', takes: ['pull'], file: false, flag: { describe: 'Accept an empty listing while types are locked' } }),
  /** Accept a pull that removes more than half of the locked types. @default false */
  force: row({ schema: z.boolean(), doc: 'accept a pull that removes more than half of the locked types', takes: ['pull'], file: false, flag: { describe: 'Accept a pull that removes more than half of the locked types' } }),
} as const satisfies Record<string, SettingRow>;

/** The settings table's type: a row per key. */
export type SettingsTable = typeof SETTINGS;

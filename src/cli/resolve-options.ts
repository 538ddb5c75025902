import { dirname, resolve } from 'node:path';
import { loadConfig } from '../config/load-config.js';
import type { SchemaSyncConfig } from '../config/schema.js';
import { REPORT_FORMATS, type ReportFormat } from '../diff/index.js';
import type { ListingQuery } from '../fetch/index.js';
import { cacheDir } from '../model/cache-dir.js';
import { ConfigError } from '../model/errors.js';
import type { OutputTarget } from '../model/lockfile.js';
import type { PullOptions } from '../run/options.js';
import type { CliIo } from './io.js';


/** Values `--format` took before `--prettier` existed, and the switch that replaces each (deprecated). */
const CODE_FORMATS: Readonly<Record<string, boolean>> = { prettier: true, none: false };

/** Commands that print a report: `--format` means nothing to any other (`rules` prints a list, text or json). */
const REPORTING_COMMANDS: readonly string[] = ['pull', 'check', 'diff', 'rules'];

/** Parsed flags, as yargs gives them: the query parameters plus the rest. */
export interface CliArgs extends ListingQuery {
  config?: string;
  baseUrl?: string;
  out?: string;
  lockfile?: string;
  input?: string;
  apiKey?: string;
  secret?: string;
  timeout?: number;
  retries?: number;
  maxBytes?: number;
  format?: string[];
  prettier?: boolean;
  fields?: boolean;
  failOn?: 'any' | 'breaking';
  templates?: string;
  package?: string;
  packageVersion?: string;
  target?: OutputTarget;
  allowEmpty?: boolean;
  allowTruncated?: boolean;
  force?: boolean;
  dryRun?: boolean;
  lockWait?: number;
}

/** Everything a command needs: library options plus what only the CLI decides. */
export interface ResolvedCli {
  library: PullOptions;
  report: ReportFormat;
  failOn: 'any' | 'breaking';
  secrets: string[];
  /** Deprecations and config-discovery notes, for the CLI to print as warnings. */
  warnings: string[];
}

/** A mistake in the command line itself: the CLI prints it as `error [USAGE]` and exits 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** What to type instead. */
    readonly hint: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** What `--format` and `--prettier` ask for: each undefined when not given. */
export interface FormatFlags {
  report?: ReportFormat;
  prettier?: boolean;
  warnings: string[];
}

/**
 * Reads `--format` (the report format, one per run, only for commands that print a report) and
 * `--prettier` / `--no-prettier`. `--format prettier|none` still sets the code format, with a
 * deprecation warning. Throws {@link UsageError} for a value that is no format, two report
 * formats, a report format for a command without a report, or a contradiction.
 */
export function readFormatFlags(command: string, args: Pick<CliArgs, 'format' | 'prettier'>): FormatFlags {
  const values = [...new Set(args.format ?? [])];
  const unknown = values.find((value) => !(REPORT_FORMATS as readonly string[]).includes(value) && !(value in CODE_FORMATS));
  if (unknown !== undefined) {
    throw new UsageError(`--format ${JSON.stringify(unknown)} is not a report format.`, `Use one of ${REPORT_FORMATS.join(', ')}; --prettier formats the generated code.`);
  }
  const reports = values.filter((value): value is ReportFormat => (REPORT_FORMATS as readonly string[]).includes(value));
  if (reports.length > 0 && !REPORTING_COMMANDS.includes(command)) {
    throw new UsageError(`${command} prints no report; --format ${reports[0]} does not apply to it.`, `Drop --format: it chooses the report of ${REPORTING_COMMANDS.join(', ')} (--prettier formats the generated code).`);
  }
  if (command === 'rules' && reports.some((report) => report !== 'text' && report !== 'json')) {
    throw new UsageError(`rules prints a list as text or json, not ${reports.find((report) => report !== 'text' && report !== 'json')}.`, 'Use --format text or --format json.');
  }
  if (reports.length > 1) {
    throw new UsageError(`${command} prints one report, but --format names ${reports.length}: ${reports.join(', ')}.`, `Keep one --format; run ${command} again for another format.`);
  }
  const warnings: string[] = [];
  const code = values.filter((value) => value in CODE_FORMATS);
  for (const value of code) warnings.push(`--format ${value} is deprecated and will be removed in the next release: use ${CODE_FORMATS[value] ? '--prettier' : '--no-prettier'}.`);
  const switches = new Set([...code.map((value) => CODE_FORMATS[value]!), ...(args.prettier === undefined ? [] : [args.prettier])]);
  if (switches.size > 1) {
    const given = [...code.map((value) => `--format ${value}`), ...(args.prettier === undefined ? [] : [args.prettier ? '--prettier' : '--no-prettier'])];
    throw new UsageError(`${given.join(' and ')} contradict each other.`, 'Pass either --prettier or --no-prettier.');
  }
  return { report: reports[0], prettier: switches.size === 0 ? undefined : [...switches][0], warnings };
}

/**
 * Merges flags over environment over config file over defaults; `flags` is what
 * {@link readFormatFlags} read. The config file's folder is the project root: relative paths in
 * the file and the default paths resolve against it (it is the library's `cwd`); paths given as
 * flags resolve against the working directory.
 */
export async function resolveOptions(args: CliArgs, io: CliIo, flags: FormatFlags): Promise<ResolvedCli> {
  const loaded = await loadConfig({ cwd: io.cwd, explicit: args.config });
  const { config } = loaded;
  const root = loaded.path === undefined ? io.cwd : dirname(loaded.path);
  const fromFlag = (path: string | undefined) => (path === undefined ? undefined : resolve(io.cwd, path));
  const env = io.env;
  if (args.limit !== undefined && !Number.isInteger(args.limit)) {
    throw new ConfigError(`--limit must be an integer from 1 to 10000, got ${String(args.limit)}.`, {
      hint: 'Pass a whole number, e.g. --limit 5000.',
    });
  }
  const apiKey = args.apiKey ?? nonEmpty(env['SCHEMA_SYNC_API_KEY']);
  const secret = args.secret ?? nonEmpty(env['SCHEMA_SYNC_SECRET']);
  const configPrettier = prettierOfConfig(config, loaded.path);
  const library: PullOptions = {
    cwd: root,
    baseUrl: args.baseUrl ?? nonEmpty(env['SCHEMA_SYNC_BASE_URL']) ?? config.baseUrl,
    out: fromFlag(args.out) ?? config.out,
    lockfile: fromFlag(args.lockfile) ?? config.lockfile,
    input: args.input === '-' ? '-' : fromFlag(args.input),
    cmd: args.cmd ?? config.cmd,
    msgType: args.msgType ?? config.msgType,
    pkey: args.pkey ?? config.pkey,
    limit: args.limit ?? config.limit,
    view: args.view ?? config.view,
    where: args.where ?? config.where,
    order: args.order ?? config.order,
    apiKey,
    secret,
    timeout: args.timeout ?? config.timeout,
    retries: args.retries ?? config.retries,
    maxBytes: args.maxBytes ?? config.maxBytes,
    templates: fromFlag(args.templates) ?? config.templates,
    package: args.package ?? config.package,
    packageVersion: args.packageVersion ?? config.packageVersion,
    target: args.target ?? config.target,
    // Undefined when neither says anything: the library then decides (the recorded setting).
    prettier: flags.prettier ?? configPrettier.prettier,
    fields: args.fields ?? config.fields,
    allowEmpty: args.allowEmpty,
    allowTruncated: args.allowTruncated,
    force: args.force,
    dryRun: args.dryRun,
    lockWait: args.lockWait,
    // Validated by the config schema: rule ids are known ones.
    rules: config.rules as PullOptions['rules'],
    accept: config.accept as PullOptions['accept'],
    include: config.include,
    exclude: config.exclude,
    // From the CLI's environment (SCHEMA_SYNC_CACHE_DIR), not the process's: the same for the
    // real CLI, and an in-process run (tests) gets the one it was given.
    cacheDir: cacheDir(env, root) ?? false,
  };
  return {
    library,
    report: flags.report ?? config.report ?? 'text',
    failOn: args.failOn ?? config.failOn ?? 'any',
    secrets: [apiKey, secret].filter((s): s is string => Boolean(s)),
    warnings: [...loaded.warnings, ...configPrettier.warnings, ...flags.warnings],
  };
}

/** The config's `prettier`, or what its deprecated `format` said (with a warning to move). */
function prettierOfConfig(config: SchemaSyncConfig, path: string | undefined): { prettier?: boolean; warnings: string[] } {
  if (config.format === undefined) return { prettier: config.prettier, warnings: [] };
  const replacement = config.format === 'prettier';
  if (config.prettier !== undefined && config.prettier !== replacement) {
    throw new ConfigError(`config file ${path} says "format": "${config.format}" and "prettier": ${config.prettier}, which contradict each other.`, {
      hint: 'Remove "format"; "prettier" replaces it.',
    });
  }
  return {
    prettier: replacement,
    warnings: [`"format": "${config.format}" in ${path} is deprecated and will be removed in the next release: use "prettier": ${replacement}.`],
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** The secrets given by flag or environment (a config file never holds one): known before anything else is read, so even a usage error is redacted. */
export function secretsFromArgsAndEnv(args: Partial<CliArgs>, env: NodeJS.ProcessEnv): string[] {
  return [args.apiKey, args.secret, env['SCHEMA_SYNC_API_KEY'], env['SCHEMA_SYNC_SECRET']].filter(
    (s): s is string => typeof s === 'string' && s.length > 0,
  );
}

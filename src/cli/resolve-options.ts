import { dirname, resolve } from 'node:path';
import { loadConfig } from '../config/load-config.js';
import type { ListingQuery } from '../fetch/index.js';
import { ConfigError } from '../model/errors.js';
import type { PullOptions } from '../run/pull.js';
import type { CliIo } from './io.js';

/** Report formats and the one code format `--format` also accepts (`--format prettier`). */
export const REPORT_FORMATS = ['text', 'json', 'markdown', 'github'] as const;
export type ReportFormatName = (typeof REPORT_FORMATS)[number];

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
  format?: string[];
  failOn?: 'any' | 'breaking';
  templates?: string;
  package?: string;
  allowEmpty?: boolean;
  allowTruncated?: boolean;
  force?: boolean;
  dryRun?: boolean;
  lockWait?: number;
}

/** Everything a command needs: library options plus what only the CLI decides. */
export interface ResolvedCli {
  library: PullOptions;
  report: ReportFormatName;
  failOn: 'any' | 'breaking';
  secrets: string[];
  /** Config-discovery notes, for the CLI to print as warnings. */
  warnings: string[];
}

/**
 * Merges flags over environment over config file over defaults. The config file's folder is the
 * project root: relative paths in the file and the default paths resolve against it (it is the
 * library's `cwd`); paths given as flags resolve against the working directory.
 */
export async function resolveOptions(args: CliArgs, io: CliIo): Promise<ResolvedCli> {
  const loaded = await loadConfig({ cwd: io.cwd, explicit: args.config });
  const { config } = loaded;
  const root = loaded.path === undefined ? io.cwd : dirname(loaded.path);
  const fromFlag = (path: string | undefined) => (path === undefined ? undefined : resolve(io.cwd, path));
  const env = io.env;
  let report: ReportFormatName = config.report ?? 'text';
  let prettier: boolean | undefined = config.format === undefined ? undefined : config.format === 'prettier';
  for (const value of args.format ?? []) {
    if (value === 'prettier') prettier = true;
    else if (value === 'none') prettier = false;
    else if ((REPORT_FORMATS as readonly string[]).includes(value)) report = value as ReportFormatName;
    else {
      throw new ConfigError(`--format ${JSON.stringify(value)} is not a format.`, {
        hint: `Use one of ${REPORT_FORMATS.join(', ')} for the report, or prettier to format the generated code.`,
      });
    }
  }
  if (args.limit !== undefined && !Number.isInteger(args.limit)) {
    throw new ConfigError(`--limit must be an integer from 1 to 10000, got ${String(args.limit)}.`, {
      hint: 'Pass a whole number, e.g. --limit 5000.',
    });
  }
  const apiKey = args.apiKey ?? nonEmpty(env['SCHEMA_SYNC_API_KEY']);
  const secret = args.secret ?? nonEmpty(env['SCHEMA_SYNC_SECRET']);
  const library: PullOptions = {
    cwd: root,
    baseUrl: args.baseUrl ?? nonEmpty(env['SCHEMA_SYNC_BASE_URL']) ?? config.baseUrl,
    out: fromFlag(args.out) ?? config.out,
    lockfile: fromFlag(args.lockfile) ?? config.lockfile,
    input: args.input === '-' ? '-' : fromFlag(args.input),
    query: {
      cmd: args.cmd ?? config.cmd,
      msgType: args.msgType ?? config.msgType,
      pkey: args.pkey ?? config.pkey,
      limit: args.limit ?? config.limit,
      view: args.view ?? config.view,
      where: args.where ?? config.where,
      order: args.order ?? config.order,
    },
    apiKey,
    secret,
    timeoutMs: args.timeout ?? config.timeout,
    retries: args.retries ?? config.retries,
    templates: fromFlag(args.templates) ?? config.templates,
    packageName: args.package ?? config.package,
    prettier,
    allowEmpty: args.allowEmpty,
    allowTruncated: args.allowTruncated,
    force: args.force,
    dryRun: args.dryRun,
    lockWaitMs: args.lockWait,
  };
  return {
    library,
    report,
    failOn: args.failOn ?? config.failOn ?? 'any',
    secrets: [apiKey, secret].filter((s): s is string => Boolean(s)),
    warnings: loaded.warnings,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** Secrets known before the config is read: for redacting even the earliest errors. */
export function earlySecrets(args: Partial<CliArgs>, env: NodeJS.ProcessEnv): string[] {
  return [args.apiKey, args.secret, env['SCHEMA_SYNC_API_KEY'], env['SCHEMA_SYNC_SECRET']].filter(
    (s): s is string => typeof s === 'string' && s.length > 0,
  );
}

import { access, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { CONFIG_FILES, findConfig } from '../../config/find-config.js';
import { CONFIG_FILE, validateConfig } from '../../config/load-config.js';
import type { SchemaSyncConfig } from '../../config/schema.js';
import { ConfigError, RefusedError, WriteError } from '../../model/errors.js';
import { EXIT } from '../exit-codes.js';
import { configLine } from '../resolve-settings.js';
import { chooseModuleFormat, formatChoiceText, readProjectModuleFacts } from './init-module-format.js';
import type { CommandContext } from './context.js';
import { msg, own } from '../../model/message.js';

/** The placeholder base URL of a starter config: replace it with the real service. */
const PLACEHOLDER_BASE_URL = 'https://schemas.example.com';

/**
 * Fails fast when the base URL is still the placeholder of `init` (or of the README): a reserved
 * domain that would only end in DNS errors after every retry.
 */
export function assertNotPlaceholder(baseUrl: string | undefined): void {
  if (baseUrl === undefined || !URL.canParse(baseUrl)) return;
  if (new URL(baseUrl).hostname !== new URL(PLACEHOLDER_BASE_URL).hostname) return;
  throw new ConfigError(msg`the base URL ${baseUrl} is the placeholder that \`schema-sync init\` writes, not your service.`, {
    hint: msg`Set "baseUrl" in schema-sync.config.json to the service, or pass --base-url / set SCHEMA_SYNC_BASE_URL.`,
  });
}

/** The npm scripts `init` suggests. */
export const SUGGESTED_SCRIPTS: Readonly<Record<string, string>> = {
  prebuild: 'schema-sync generate',
  'schema:pull': 'schema-sync pull',
  'schema:check': 'schema-sync check',
};

/**
 * Writes a starter `schema-sync.config.json` (never over an existing one without `--force`) and
 * prints the npm scripts to add. Its flags: `--config` (where to write it), `--force` (overwrite
 * an existing one, or write one in a folder below the project's config), `--base-url` and
 * `--out` (written instead of the placeholder and the default). The module format of the
 * generated files is detected from the project's tsconfig and package.json. Exit 0 when
 * written, 2 when refused or failed.
 */
export async function initCommand({ args: flags, io, log }: CommandContext): Promise<number> {
  const args = { config: flags.string('config'), force: flags.boolean('force'), baseUrl: flags.string('base-url'), out: flags.string('out') };
  const path = resolve(io.cwd, args.config ?? CONFIG_FILE);
  // Every other command run here would use the config the upward search finds: a second one here
  // would take its place unnoticed. A --config path is where the user asked for it.
  const upward = args.config === undefined ? await findConfig(io.cwd) : undefined;
  log.verbose(upward === undefined ? `config: ${path} (--config)` : configLine(upward));
  const above = upward?.path !== undefined && dirname(upward.path) !== dirname(path) ? upward.path : undefined;
  if (above !== undefined && !args.force) {
    throw new RefusedError(msg`this project already has a config: ${relative(io.cwd, above)} (found searching upward from ${io.cwd}); nothing was written.`, {
      hint: msg`Commands run here use it: edit it. To give this folder a config of its own, which commands run here and below find first, run \`schema-sync init --force\`.`,
    });
  }
  const schemaFile = join(io.cwd, 'node_modules', 'schema-sync', 'config.schema.json');
  let schemaRef = relative(dirname(path), schemaFile).split(sep).join('/');
  if (!schemaRef.startsWith('.')) schemaRef = `./${schemaRef}`;
  // The starter config, what a new user edits; `$schema` is relative to the config's folder.
  const out = args.out ?? 'src/generated/schema';
  const moduleFormat = chooseModuleFormat(await readProjectModuleFacts(dirname(path), resolve(dirname(path), out), io.cwd));
  const config: SchemaSyncConfig = {
    $schema: schemaRef,
    baseUrl: args.baseUrl ?? PLACEHOLDER_BASE_URL,
    cmd: 'getmsgtypes',
    out,
    lockfile: 'schema-sync.lock.json',
    ...(moduleFormat.format === undefined ? {} : { moduleFormat: moduleFormat.format }),
    ...(moduleFormat.target === undefined ? {} : { target: moduleFormat.target }),
  };
  // The same rules as every other command: a bad --base-url is refused here, not at the first pull.
  validateConfig(config, path);
  const shown = relative(io.cwd, path) || path;
  await refuseSecondConfig(path, io.cwd);
  try {
    await writeFile(path, `${JSON.stringify(config, null, 2)}\n`, { flag: args.force ? 'w' : 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      throw new RefusedError(msg`${shown} already exists; nothing was written.`, {
        hint: msg`Edit the existing file, or run \`schema-sync init --force\` to replace it with a starter config.`,
      });
    }
    throw new WriteError(msg`cannot write ${path}: ${(error as Error).message}`, {
      hint: code === 'ENOENT' ? msg`Create the folder first, or pass another --config path.` : msg`Check the folder exists and is writable.`,
      cause: error,
    });
  }
  const scripts = await scriptsToAdd(io.cwd);
  log.info(`Wrote ${shown}.`);
  if (above !== undefined) log.info(`Commands run in this folder and below now use it instead of ${relative(io.cwd, above)}.`);
  log.info(`${formatChoiceText(moduleFormat)}: ${moduleFormat.reason}.`);
  if (moduleFormat.caution !== undefined) log.warn(moduleFormat.caution);
  if (Object.keys(scripts).length > 0) {
    log.info('Add these scripts to package.json:');
    if (!log.quiet) log.out(JSON.stringify({ scripts }, null, 2));
  } else {
    log.info('package.json already has the suggested scripts (prebuild, schema:pull, schema:check).');
  }
  const steps = [
    args.baseUrl ? undefined : `Set "baseUrl" in ${shown} to your service (or export SCHEMA_SYNC_BASE_URL).`,
    'export SCHEMA_SYNC_API_KEY=… (and SCHEMA_SYNC_SECRET if the service needs one): never in the file.',
    'npx schema-sync pull, then commit the lockfile and the output folder.',
  ].filter((line): line is string => line !== undefined);
  log.info('Next:');
  steps.forEach((line, i) => log.info(`  ${i + 1}. ${line}`));
  return EXIT.ok;
}

/**
 * Refuses a starter config beside another config name that schema-sync reads (a `.mjs` or `.js`
 * config, even with `--force`): a folder with two of them makes every later command fail.
 */
async function refuseSecondConfig(path: string, cwd: string): Promise<void> {
  const written = basename(path);
  // A config under another name (--config) is only read through --config: it clashes with none.
  if (!CONFIG_FILES.some((name) => name === written)) return;
  for (const name of CONFIG_FILES) {
    if (name === written) continue;
    const other = join(dirname(path), name);
    if (!(await access(other).then(() => true, () => false))) continue;
    throw new RefusedError(msg`${relative(cwd, other) || other} already exists; nothing was written.`, {
      hint: msg`schema-sync reads one config a folder: edit ${own(name)}, or remove it before \`schema-sync init\`.`,
    });
  }
}

/**
 * The suggested scripts the project's package.json lacks. A script that exists with another
 * command keeps it, run after schema-sync's (`"prebuild": "schema-sync generate && tsc"`).
 */
async function scriptsToAdd(cwd: string): Promise<Record<string, string>> {
  let existing: Record<string, unknown> = {};
  try {
    const pkg = JSON.parse(await readFile(join(cwd, 'package.json'), 'utf8')) as { scripts?: Record<string, unknown> };
    existing = pkg.scripts ?? {};
  } catch {
    // No package.json (or not JSON): suggest them all.
  }
  const out: Record<string, string> = {};
  for (const [name, command] of Object.entries(SUGGESTED_SCRIPTS)) {
    const current = existing[name];
    if (typeof current === 'string' && current.includes(command)) continue;
    out[name] = typeof current === 'string' && current.trim() !== '' ? `${command} && ${current}` : command;
  }
  return out;
}

import { createRequire } from 'node:module';
import { extname, resolve } from 'node:path';
import { ConfigError } from '../model/errors.js';
import { configSchema, type SchemaSyncConfig } from './schema.js';
import { didYouMean } from '../util/did-you-mean.js';
import { CONFIG_FILES, findConfig, type ConfigSearch, type FoundConfig } from './find-config.js';
import { joinMessages, msg, own, type Message } from '../model/message.js';
import { issueMessage } from '../model/issue-message.js';
import { readBoundedFile, READ_BOUNDS } from '../util/read-bounded.js';
import { MAX_NESTING } from '../util/nesting.js';
import { settingProblem } from './merge-settings.js';

/** The config file `init` writes, and the first name the upward search looks for. */
export const CONFIG_FILE = CONFIG_FILES[0];

/** Credential-looking keys (compared without case, `-` or `_`) and the variable to use instead. */
const SECRET_KEYS: Record<string, string> = {
  apikey: 'SCHEMA_SYNC_API_KEY',
  key: 'SCHEMA_SYNC_API_KEY',
  token: 'SCHEMA_SYNC_API_KEY',
  apitoken: 'SCHEMA_SYNC_API_KEY',
  secret: 'SCHEMA_SYNC_SECRET',
  apisecret: 'SCHEMA_SYNC_SECRET',
  clientsecret: 'SCHEMA_SYNC_SECRET',
  password: 'SCHEMA_SYNC_SECRET',
};

/** The environment variable a credential-looking key belongs in, or undefined. */
function credentialVariable(key: string): string | undefined {
  return SECRET_KEYS[key.toLowerCase().replace(/[-_]/g, '')];
}

/** A loaded config: its contents, its absolute path (none when no file was found), and warnings to show. */
export interface LoadedConfig {
  config: SchemaSyncConfig;
  path?: string;
  warnings: Message[];
  /** Where the upward search looked (none with `--config`). */
  searched?: ConfigSearch;
}

/**
 * Loads the config file: `explicit` (a path relative to `cwd`, from `--config`) must exist;
 * otherwise the file is searched for from `cwd` upward (see {@link findConfig}) and may be absent.
 * JSON is parsed; `.mjs` and `.js` give their default export. Every problem is reported at once
 * with its key path; a literal key or secret is refused without echoing it.
 */
export async function loadConfig(options: { cwd: string; explicit?: string }): Promise<LoadedConfig> {
  const found: Omit<FoundConfig, 'searched'> & { searched?: ConfigSearch } =
    options.explicit === undefined ? await findConfig(options.cwd) : { path: resolve(options.cwd, options.explicit), warnings: [] };
  const { path, searched } = found;
  if (path === undefined) return { config: {}, warnings: found.warnings, ...(searched === undefined ? {} : { searched }) };
  const kind = extname(path).toLowerCase();
  if (kind !== '.json' && kind !== '.mjs' && kind !== '.js') {
    throw new ConfigError(msg`cannot read config file ${path}: schema-sync reads JSON (.json) and JavaScript module (.mjs, .js) config files.`, {
      hint: msg`Check the --config path, or convert the file to one of those.`,
    });
  }
  const explicit = options.explicit !== undefined;
  const raw = kind === '.json' ? parseConfigJson(await reading(path, explicit, async () => (await readBoundedFile(path, { maxBytes: READ_BOUNDS.config })).toString('utf8')), path) : await loadModuleConfig(path, explicit);
  return { config: validateConfig(raw, path), path, warnings: found.warnings, ...(searched === undefined ? {} : { searched }) };
}

function parseConfigJson(text: string, path: string): unknown {
  try {
    // A byte order mark, as some Windows editors save UTF-8, is no part of the JSON.
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new ConfigError(msg`config file ${path} is not valid JSON: ${describeJsonError((error as Error).message, text)}`, {
      hint: msg`Fix the JSON syntax (no comments or trailing commas).`,
    });
  }
}

/** `read` of the config file; a file that cannot be read is a ConfigError saying where to look. */
async function reading<T>(path: string, explicit: boolean, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw new ConfigError(msg`cannot read config file ${path}: ${(error as Error).message}`, {
      hint: explicit ? msg`Check the --config path.` : msg`Check that the file is readable, or name another with --config.`,
    });
  }
}

/**
 * Validates parsed config JSON; see {@link loadConfig}. Every problem is listed at once, each with
 * its key path and what was expected. Credentials (a key named like `apiKey`/`secret`, or one
 * inside `baseUrl`) are refused with the variable to use instead; their values are never echoed.
 */
export function validateConfig(json: unknown, path: string): SchemaSyncConfig {
  const problems: Message[] = [];
  const variables = new Set<string>();
  let credentialProblems = 0;
  let candidate = json;
  if (json !== null && typeof json === 'object' && !Array.isArray(json)) {
    const rest: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(json)) {
      const variable = credentialVariable(key);
      if (variable) {
        problems.push(msg`"${key}": a literal credential is not allowed in a config file (use ${own(variable)})`);
        variables.add(variable);
        credentialProblems++;
      } else rest[key] = value;
    }
    const baseUrl = rest['baseUrl'];
    if (typeof baseUrl === 'string') {
      const inUrl = credentialsInUrl(baseUrl);
      for (const variable of inUrl) variables.add(variable);
      if (inUrl.length > 0) {
        problems.push(msg`"baseUrl": holds a credential (user info or an apikey/secret query parameter); keep only scheme, host and path (use ${own(inUrl.join(' and '))})`);
        credentialProblems++;
        delete rest['baseUrl'];
      }
    }
    candidate = rest;
  }
  const result = configSchema.safeParse(candidate, { reportInput: true });
  const known = Object.keys(configSchema.shape);
  if (!result.success) {
    for (const issue of result.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          const suggestion = didYouMean(key, known);
          problems.push(msg`"${[...issue.path.map(String), key].join('.')}": unknown key${own(suggestion ? ` (did you mean "${suggestion}"?)` : '')}`);
        }
        continue;
      }
      const where = issue.path.length > 0 ? issue.path.map(String).join('.') : '(top level)';
      problems.push(settingProblem(`"${where}"`, issue));
    }
  }
  if (problems.length === 0 && result.success) return result.data;
  const onlyCredentials = variables.size > 0 && result.success && problems.length === credentialProblems;
  const credentialHint =
    variables.size > 0
      ? `Credentials never go in a file that may be committed: remove them and set ${[...variables].sort().join(' and ')} in the environment (or pass --api-key / --secret).`
      : '';
  const referenceHint = `See the configuration reference, docs/configuration.md; known keys: ${known.join(', ')}.`;
  // Both hints are the program's own: setting names and the schema's keys.
  throw new ConfigError(
    msg`config file ${path} ${own(onlyCredentials ? 'holds a literal credential; nothing was used' : 'is invalid')}:\n  ${joinMessages(problems, '\n  ')}`,
    { hint: own(onlyCredentials ? credentialHint : [credentialHint, referenceHint].filter(Boolean).join(' ')) },
  );
}

/** Environment variables for the credentials a URL carries (user info, `apikey`/`secret` parameters). */
function credentialsInUrl(text: string): string[] {
  if (!URL.canParse(text)) return [];
  const url = new URL(text);
  const found = new Set<string>();
  if (url.username || url.password) found.add('SCHEMA_SYNC_API_KEY');
  for (const name of url.searchParams.keys()) {
    const variable = credentialVariable(name);
    if (variable) found.add(variable);
  }
  return [...found].sort();
}

/**
 * JSON.parse's complaint without the snippet of the file V8 quotes (it may hold a credential),
 * with the line and column of the position when there is one.
 */
function describeJsonError(message: string, text: string): string {
  let clean = message.replace(/,\s*(?:\.\.\.)?".*" is not valid JSON$/s, ' (not valid JSON)');
  const position = /at position (\d+)/.exec(clean);
  if (position) {
    const before = text.slice(0, Number(position[1]));
    const line = before.split('\n').length;
    const column = before.length - before.lastIndexOf('\n');
    clean = clean.replace(/ in JSON at position \d+(?: \(line \d+ column \d+\))?/, ` at line ${line}, column ${column}`);
  }
  return clean;
}

/**
 * The default export of a `.mjs` / `.js` config, through `require()`: the CLI runs as a CommonJS
 * bundle compiled through node:vm, where dynamic `import()` has no loader to call, while Node
 * >= 20.19 loads ES modules (without top-level await) through `require()`. A CommonJS `.js`
 * config's `module.exports` is its default export. Validation is the caller's. Node keeps a loaded
 * module for the life of the process, which is one run of the CLI.
 */
async function loadModuleConfig(path: string, explicit: boolean): Promise<unknown> {
  // Checked first, so an unreadable module gets the message an unreadable JSON file gets, and a
  // FIFO or device is never handed to the module loader (it would wait, or read without end).
  await reading(path, explicit, () => readBoundedFile(path, { maxBytes: READ_BOUNDS.config }));
  let loaded: unknown;
  try {
    loaded = createRequire(path)(path);
  } catch (error) {
    throw loadFailure(path, error);
  }
  if (!isModuleNamespace(loaded)) return plainExport(await settledExport(loaded, path), path);
  if ('default' in loaded) return plainExport(await settledExport(loaded.default, path), path);
  throw new ConfigError(msg`config file ${path} has no default export.`, {
    hint: msg`Export the configuration as the module's default: \`export default defineConfig({ … })\` (defineConfig from 'schema-sync').`,
  });
}

/** An ES module's namespace object (what `require()` returns for one), as opposed to `module.exports`. */
function isModuleNamespace(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === 'Module';
}

/** Why a config module did not load, and what to do; the module's own error message is kept. */
function loadFailure(path: string, error: unknown): ConfigError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ERR_REQUIRE_ASYNC_MODULE') {
    return new ConfigError(msg`config file ${path} uses top-level await, which schema-sync cannot load.`, {
      hint: msg`Compute the configuration without top-level await (schema-sync loads config modules synchronously), or use schema-sync.config.json.`,
      cause: error,
    });
  }
  if (code === 'ERR_REQUIRE_ESM') {
    return new ConfigError(msg`config file ${path} is an ES module, which Node ${own(process.versions.node)} cannot load through require().`, {
      hint: msg`Use Node 20.19 or later (or 22.12 or later), or use schema-sync.config.json.`,
      cause: error,
    });
  }
  const message = error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : String(error);
  return new ConfigError(msg`config file ${path} failed to load: ${message}`, {
    hint: msg`Fix the error in the config module (\`node ${path}\` shows it in full).`,
    cause: error,
  });
}

/** Most time a config module's exported promise may take to settle. */
const EXPORT_SETTLE_MS = 30_000;

/**
 * The value of a config module's export; a promise (or any thenable) is awaited, within a bound:
 * one that can no longer settle (nothing left for the process to do) or takes longer than
 * {@link EXPORT_SETTLE_MS} is a ConfigError, not a process that ends saying nothing. The value
 * is wrapped, so that the async function returning it does not adopt a thenable itself.
 */
async function settledExport(value: unknown, path: string): Promise<{ value: unknown }> {
  let then: unknown;
  try {
    then = typeof value === 'object' || typeof value === 'function' ? (value as { then?: unknown } | null)?.then : undefined;
  } catch (error) {
    throw exportFailure(path, error);
  }
  if (typeof then !== 'function') return { value };
  const never = () => new ConfigError(msg`config file ${path} exports a promise that never settles.`, {
    hint: msg`Export the configuration object itself, or a promise that resolves to it.`,
  });
  let timer: NodeJS.Timeout | undefined;
  let stalled: (() => void) | undefined;
  try {
    return await new Promise<{ value: unknown }>((resolve, reject) => {
      stalled = () => reject(never());
      // The event loop empties while the promise is pending: it can never settle.
      process.once('beforeExit', stalled);
      // Unref'd: a timer of its own would keep the process alive, and the empty loop unnoticed.
      timer = setTimeout(stalled, EXPORT_SETTLE_MS).unref();
      Promise.resolve(value as PromiseLike<unknown>).then((settled) => resolve({ value: settled }), (error: unknown) => reject(exportFailure(path, error)));
    });
  } finally {
    clearTimeout(timer);
    if (stalled !== undefined) process.removeListener('beforeExit', stalled);
  }
}

/**
 * The export as plain data (own enumerable keys of objects and arrays, copied): a getter or a
 * Proxy trap that throws is a ConfigError naming the file here, not an internal error later, and
 * nothing of the module runs after this. Deeper than the nesting limit (or circular) is refused.
 */
function plainExport(exported: { value: unknown }, path: string): unknown {
  const copy = (value: unknown, depth: number): unknown => {
    if (value === null || typeof value !== 'object') return value;
    if (depth > MAX_NESTING) {
      throw new ConfigError(msg`config file ${path} exports a value nested deeper than ${own(String(MAX_NESTING))} levels (or circular).`, {
        hint: msg`Export a plain configuration object.`,
      });
    }
    if (Array.isArray(value)) return Array.from(value, (item) => copy(item, depth + 1));
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copy(item, depth + 1)]));
  };
  try {
    return copy(exported.value, 0);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw exportFailure(path, error);
  }
}

/** A config module's export that threw as it was read (a getter, a Proxy trap) or rejected. */
function exportFailure(path: string, error: unknown): ConfigError {
  const message = error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : String(error);
  return new ConfigError(msg`config file ${path}: reading its export threw ${message}`, {
    hint: msg`Export plain data: no getter or Proxy that throws, no promise that rejects (\`node ${path}\` runs the module).`,
    cause: error,
  });
}

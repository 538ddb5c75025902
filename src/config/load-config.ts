import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ConfigError } from '../model/errors.js';
import { configSchema, type SchemaSyncConfig } from './schema.js';
import { didYouMean } from './did-you-mean.js';

/** The default config file name, looked up in the working directory. */
export const CONFIG_FILE = 'schema-sync.config.json';

const SECRET_KEYS: Record<string, string> = {
  apiKey: 'SCHEMA_SYNC_API_KEY',
  apikey: 'SCHEMA_SYNC_API_KEY',
  api_key: 'SCHEMA_SYNC_API_KEY',
  key: 'SCHEMA_SYNC_API_KEY',
  secret: 'SCHEMA_SYNC_SECRET',
};

/**
 * Loads the config file: `explicit` must exist; the default file may be absent. Every problem is
 * reported at once with its key path; a literal key or secret is refused without echoing it.
 */
export async function loadConfig(options: { cwd: string; explicit?: string }): Promise<{ config: SchemaSyncConfig; path?: string }> {
  const path = resolve(options.cwd, options.explicit ?? CONFIG_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && options.explicit === undefined) return { config: {} };
    throw new ConfigError(`cannot read config file ${path}: ${(error as Error).message}`, {
      hint: options.explicit ? 'Check the --config path.' : 'Run `schema-sync init` to create one.',
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`config file ${path} is not valid JSON: ${(error as Error).message}`, {
      hint: 'Fix the JSON syntax (no comments or trailing commas).',
    });
  }
  return { config: validateConfig(json, path), path };
}

/** Validates parsed config JSON; see {@link loadConfig}. */
export function validateConfig(json: unknown, path: string): SchemaSyncConfig {
  if (json !== null && typeof json === 'object' && !Array.isArray(json)) {
    const secrets = Object.keys(json).filter((key) => key in SECRET_KEYS);
    if (secrets.length > 0) {
      const vars = [...new Set(secrets.map((key) => SECRET_KEYS[key]))].join(' and ');
      throw new ConfigError(
        `config file ${path} holds a literal credential (${secrets.map((k) => `"${k}"`).join(', ')}); credentials never go in a file that may be committed.`,
        { hint: `Remove it and set ${vars} in the environment (or pass --api-key / --secret).` },
      );
    }
  }
  const result = configSchema.safeParse(json);
  if (result.success) return result.data;
  const known = Object.keys(configSchema.shape);
  const problems = result.error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => {
        const suggestion = didYouMean(key, known);
        return `"${[...issue.path.map(String), key].join('.')}": unknown key${suggestion ? ` (did you mean "${suggestion}"?)` : ''}`;
      });
    }
    const where = issue.path.length > 0 ? issue.path.map(String).join('.') : '(top level)';
    return [`"${where}": ${issue.message}`];
  });
  throw new ConfigError(`config file ${path} is invalid:\n  ${problems.join('\n  ')}`, {
    hint: `See the configuration reference in the README; known keys: ${known.join(', ')}.`,
  });
}

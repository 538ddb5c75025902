import { ConfigError } from '../model/errors.js';
import { settingsSchema, type SettingKey, type Settings } from './settings.js';
import { joinMessages, msg, own, type Message } from '../model/message.js';
import { issueMessage } from '../model/issue-message.js';

/** The environment variables that give a setting; nothing else of the environment is a setting. */
export const SETTING_VARIABLES = {
  baseUrl: 'SCHEMA_SYNC_BASE_URL',
  apiKey: 'SCHEMA_SYNC_API_KEY',
  secret: 'SCHEMA_SYNC_SECRET',
} as const satisfies Partial<Record<SettingKey, string>>;

/** The defaults the merge applies; every other setting's default is the library's (or "as the lockfile records"). */
export const SETTING_DEFAULTS = { report: 'text', failOn: 'any' } as const satisfies Partial<Settings>;

/** One source of settings: what it gives, and how a problem names a key of it (`--retries`, `"retries"`). */
export interface SettingsLayer {
  given: Record<string, unknown>;
  /** The key as the user wrote it in this source. */
  name(key: string): string;
  /** What the problems of this source are headed with, e.g. "invalid flags". */
  title: string;
}

/**
 * Validates what one source gives against the settings schema (the same bounds and messages
 * for a flag, a variable and a config key) and returns the settings it sets; a key it leaves
 * undefined sets nothing. Every problem is reported at once, each named as the source spells it.
 *
 * @throws ConfigError listing every problem.
 */
export function readLayer(layer: SettingsLayer, hint: Message): Partial<Settings> {
  const given = Object.fromEntries(Object.entries(layer.given).filter(([, value]) => value !== undefined));
  const result = settingsSchema.safeParse(given, { reportInput: true });
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const [key, ...rest] = issue.path;
    const where = key === undefined ? '(top level)' : layer.name(String(key)) + rest.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
    return msg`${own(where)}: ${issueMessage(issue)}`;
  });
  throw new ConfigError(msg`${own(layer.title)}:\n  ${joinMessages(problems, '\n  ')}`, { hint });
}

/**
 * The settings `env` gives: each variable of {@link SETTING_VARIABLES} that is set and not empty,
 * of the settings in `wanted` (a command's own; a variable means nothing to a command without
 * that setting, so it is neither read nor refused there).
 */
export function environmentLayer(env: NodeJS.ProcessEnv, wanted: ReadonlySet<string>): SettingsLayer {
  const given: Record<string, unknown> = {};
  for (const [key, variable] of Object.entries(SETTING_VARIABLES)) {
    const value = env[variable];
    if (wanted.has(key) && value !== undefined && value !== '') given[key] = value;
  }
  const variables: Record<string, string> = SETTING_VARIABLES;
  return { given, name: (key) => variables[key] ?? key, title: 'invalid environment variables' };
}

/**
 * The settings of a run: each layer over the one before it (pass them lowest first: defaults,
 * file, environment, flags). A layer's undefined keys leave the lower layers' values.
 */
export function mergeSettings(...layers: readonly Partial<Settings>[]): Settings {
  const merged: Record<string, unknown> = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) if (value !== undefined) merged[key] = value;
  }
  return settingsSchema.parse(merged);
}

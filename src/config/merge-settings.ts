import { ConfigError } from '../model/errors.js';
import { SETTING_ROWS, settingsSchema, type MergedSettings, type SettingKey, type Settings } from './settings.js';
import { joinMessages, msg, own, type Message } from '../model/message.js';
import { issueMessage } from '../model/issue-message.js';
import { OWN_WORDS, valueOfText } from './setting-values.js';
import type { z } from 'zod';

/** The environment variables that give a setting (the table's `variable`), by setting; nothing else of the environment is a setting. */
export const SETTING_VARIABLES: Readonly<Partial<Record<SettingKey, string>>> = Object.fromEntries(
  SETTING_ROWS.flatMap((row) => (row.variable === undefined ? [] : [[row.key, row.variable]])),
);

/** One source of settings: what it gives, and how a problem names a key of it (`--retries`, `"retries"`). */
export interface SettingsLayer {
  given: Record<string, unknown>;
  /** The key as the user wrote it in this source. */
  name(key: string): string;
  /** What the problems of this source are headed with, e.g. "invalid flags". */
  title: string;
}

/**
 * A problem of a setting, named as its source spells it: `--timeout takes a whole number of
 * milliseconds from 1 (got "abc")` when the setting says it in its own words, else
 * `"baseUrl": expected an absolute http(s) URL`.
 */
export function settingProblem(where: string, issue: z.core.$ZodIssue): Message {
  const said = issueMessage(issue);
  return issue.message.startsWith(OWN_WORDS) ? msg`${own(where)} ${said}` : msg`${own(where)}: ${said}`;
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
    return settingProblem(where, issue);
  });
  throw new ConfigError(msg`${own(layer.title)}:\n  ${joinMessages(problems, '\n  ')}`, { hint });
}

/**
 * The settings `env` gives: each variable of {@link SETTING_VARIABLES} that is set and not empty,
 * of the settings in `wanted` (a command's own; a variable means nothing to a command without
 * that setting, so it is neither read nor refused there), read as its setting takes text.
 */
export function environmentLayer(env: NodeJS.ProcessEnv, wanted: ReadonlySet<string>): SettingsLayer {
  const given: Record<string, unknown> = {};
  const names: Record<string, string> = {};
  for (const row of SETTING_ROWS) {
    const value = row.variable === undefined ? undefined : env[row.variable];
    if (!wanted.has(row.key) || value === undefined || value === '') continue;
    given[row.key] = valueOfText(row.schema, value);
    names[row.key] = row.variable!;
  }
  return { given, name: (key) => names[key] ?? key, title: 'invalid environment variables' };
}

/**
 * The settings of a run: each layer over the one before it (pass them lowest first: file,
 * environment, flags) over the table's fallbacks, a loop over the table's rows. A layer's
 * undefined keys leave the lower layers' values.
 */
export function mergeSettings(...layers: readonly Partial<Settings>[]): MergedSettings {
  const merged: Record<string, unknown> = {};
  for (const { key, fallback } of SETTING_ROWS) {
    const value = layers.reduce<unknown>((lower, layer) => layer[key] ?? lower, fallback);
    if (value !== undefined) merged[key] = value;
  }
  return settingsSchema.parse(merged) as MergedSettings;
}

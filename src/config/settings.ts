import { z } from 'zod';
import { SETTINGS, type SettingRow, type SettingsTable, type Stage } from './settings-table.js';

/** The settings schema's shape: each row's schema, optional (a default applies where none is given). */
type SettingsShape = { [K in keyof SettingsTable]: z.ZodOptional<SettingsTable[K]['schema']> };

/**
 * Every setting of schema-sync, in one shape, from the settings table (`settings-table.ts`): the
 * config file, the environment and the flags each give a part of it, merged once (flag >
 * environment > file > default, see `merge-settings.ts`), and the library's `pull`, `check` and
 * `generate` take it as their options. Each key's bounds and messages are its row's, so a flag is
 * refused exactly as its config key is.
 */
export const settingsSchema = z.object(Object.fromEntries(Object.entries(SETTINGS).map(([key, row]) => [key, row.schema.optional()])) as SettingsShape);

/** Every setting (see {@link settingsSchema}); each one optional, a default applying where none is given. */
export type Settings = z.infer<typeof settingsSchema>;

/** The name of a setting. */
export type SettingKey = keyof Settings;

/** The settings a part of a run takes (the settings table's `takes`), e.g. `SettingsOf<'source'>`. */
export type KeysTaking<S extends Stage> = { [K in SettingKey]: S extends SettingsTable[K]['takes'][number] ? K : never }[SettingKey];

/** The generation settings: those the lockfile records (the rows with `recorded`). */
export type RecordedKey = { [K in SettingKey]: SettingsTable[K] extends { recorded: object } ? K : never }[SettingKey];

/** The settings the CLI's merge always gives a value (the rows with a `fallback`): `report`, `failOn`. */
export type FallbackKey = { [K in SettingKey]: SettingsTable[K] extends { fallback: unknown } ? K : never }[SettingKey];

/** The settings of a CLI run, merged: each one optional but those the merge always gives. */
export type MergedSettings = Settings & Required<Pick<Settings, FallbackKey>>;

/** Every row of the table with its key, in the table's order. */
export const SETTING_ROWS: readonly ({ key: SettingKey } & SettingRow)[] = Object.entries(SETTINGS).map(([key, row]) => ({ key: key as SettingKey, ...(row as SettingRow) }));

/** Config `rules` and `accept`, which the library's review options share: one schema refuses a bad policy from a config file and from a library caller alike. */
export const reviewSchema = settingsSchema.pick({ rules: true, accept: true });

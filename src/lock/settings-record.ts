import { z } from 'zod';
import { SETTING_ROWS } from '../config/settings.js';
import { SETTINGS } from '../config/settings-table.js';
import type { GenerationSettings } from '../model/lockfile.js';

/** The rows the lockfile records, each with its key in the lockfile (its `recorded.as`, else the setting's). */
const RECORDED = SETTING_ROWS.flatMap((row) => (row.recorded === undefined ? [] : [{ key: row.key, as: row.recorded.as ?? row.key, schema: row.recorded.schema ?? row.schema }]));

/** A package's CHANGELOG.md sections, which the settings record keeps (not a setting: each pull that bumps the version adds one). */
const changelogSchema = z.array(z.object({ version: SETTINGS.packageVersion.schema, notes: z.string() }).strict()).min(1);

/**
 * The lockfile's `settings`: the generation settings (the settings table's recorded rows, each
 * under its lockfile key) and the package's changelog; absent in lockfiles written before they
 * were recorded. Read into the settings' own keys.
 */
export const settingsRecordSchema = z
  .object({ ...Object.fromEntries(RECORDED.map((row) => [row.as, row.schema.optional()])), changelog: changelogSchema.optional() })
  .strict()
  .default({})
  .transform((record): GenerationSettings => {
    const settings: Record<string, unknown> = {};
    for (const row of RECORDED) if ((record as Record<string, unknown>)[row.as] !== undefined) settings[row.key] = (record as Record<string, unknown>)[row.as];
    if (record.changelog !== undefined) settings['changelog'] = record.changelog;
    return settings as GenerationSettings;
  });

/** The lockfile's `settings` of generation settings: each under its lockfile key (`package` as `packageName`). */
export function settingsRecord(settings: GenerationSettings): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const row of RECORDED) if (settings[row.key as keyof GenerationSettings] !== undefined) record[row.as] = settings[row.key as keyof GenerationSettings];
  if (settings.changelog !== undefined) record['changelog'] = settings.changelog;
  return record;
}

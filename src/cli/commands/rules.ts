import { ruleRows, rulesTableLines } from '../../diff/index.js';
import { EXIT } from '../exit-codes.js';
import type { SettingsContext } from './context.js';

/**
 * `schema-sync rules`: every drift rule id with its default severity, the severity the config's
 * `rules` gives it (the default when it names none), and what it detects; as an aligned table,
 * or with `--format json` as one object `{ "rules": [{ id, default, severity, description }] }`.
 * Exit 0.
 */
export async function rulesCommand({ typedReport, settings, log }: SettingsContext): Promise<number> {
  const rows = ruleRows(settings.rules);
  if (typedReport === 'json') {
    log.out(JSON.stringify({ rules: rows }, null, 2));
    return EXIT.ok;
  }
  const lines = rulesTableLines(rows);
  const changed = rows.filter((row) => row.severity !== row.default).length;
  lines.push('', changed === 0 ? 'Every rule has its default severity (set "rules" in the config to change one, "off" to drop it).' : `* set by "rules" in the config (${changed}).`);
  log.out(lines.join('\n'));
  return EXIT.ok;
}

import { RULES } from '../../diff/index.js';
import { EXIT } from '../exit-codes.js';
import type { SettingsContext } from './context.js';

/**
 * `schema-sync rules`: every drift rule id with its default severity, the severity the config's
 * `rules` gives it (the default when it names none), and what it detects; as an aligned table,
 * or with `--format json` as one object `{ "rules": [{ id, default, severity, description }] }`.
 * Exit 0.
 */
export async function rulesCommand({ typedReport, settings, log }: SettingsContext): Promise<number> {
  const configured = settings.rules;
  const rows = RULES.map((rule) => ({ id: rule.id, default: rule.severity, severity: configured?.[rule.id] ?? rule.severity, description: rule.description }));
  if (typedReport === 'json') {
    log.out(JSON.stringify({ rules: rows }, null, 2));
    return EXIT.ok;
  }
  const table = [['RULE', 'DEFAULT', 'CONFIGURED', 'DESCRIPTION'], ...rows.map((row) => [row.id, row.default, row.severity === row.default ? row.severity : `${row.severity} *`, row.description])];
  const widths = [0, 1, 2].map((column) => Math.max(...table.map((cells) => cells[column]!.length)));
  const lines = table.map((cells) => cells.map((cell, column) => (column < 3 ? cell.padEnd(widths[column]!) : cell)).join('  '));
  const changed = rows.filter((row) => row.severity !== row.default).length;
  lines.push('', changed === 0 ? 'Every rule has its default severity (set "rules" in the config to change one, "off" to drop it).' : `* set by "rules" in the config (${changed}).`);
  log.out(lines.join('\n'));
  return EXIT.ok;
}

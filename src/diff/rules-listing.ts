import { RULES, type RuleId, type RuleLevel } from './rules.js';
import type { Severity } from './types.js';

/** One rule as `schema-sync rules` lists it: its default severity and the one the config gives it. */
export interface RuleRow {
  id: RuleId;
  default: Severity;
  severity: RuleLevel;
  description: string;
}

/** Every rule in table order, with the level config `rules` sets (its default where it sets none). */
export function ruleRows(configured: Readonly<Partial<Record<string, RuleLevel>>> | undefined): RuleRow[] {
  return RULES.map((rule) => ({ id: rule.id, default: rule.severity, severity: configured?.[rule.id] ?? rule.severity, description: rule.description }));
}

/**
 * The aligned table `schema-sync rules` prints (a configured level that is not the default marked
 * `*`), one line a rule under its heading; docs/rules.md shows it with every default.
 */
export function rulesTableLines(rows: readonly RuleRow[]): string[] {
  const table = [['RULE', 'DEFAULT', 'CONFIGURED', 'DESCRIPTION'], ...rows.map((row) => [row.id, row.default, row.severity === row.default ? row.severity : `${row.severity} *`, row.description])];
  const widths = [0, 1, 2].map((column) => Math.max(...table.map((cells) => cells[column]!.length)));
  return table.map((cells) => cells.map((cell, column) => (column < 3 ? cell.padEnd(widths[column]!) : cell)).join('  '));
}

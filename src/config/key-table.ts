import { z } from 'zod';
import { SETTING_ROWS } from './settings.js';
import { wholeNumberOf, wholeNumberWords } from './setting-values.js';
import { kebab } from '../util/case.js';

/** A row of the key table: the key, its type, its default, its flag and variable, what it does (markdown). */
type KeyLine = readonly [key: string, type: string, fallback: string, flag: string, meaning: string];

/** The config file's keys that are no setting: `$schema` first, the deprecated `format` beside `prettier`. */
const SCHEMA_KEY: KeyLine = ['$schema', 'string', '', '', 'JSON Schema for editor completion (`init` sets it)'];
const FORMAT_KEY: KeyLine = ['format', '`prettier` | `none`', '', '', 'deprecated, read with a warning in this release: use `"prettier": true` / `false`'];

/** The docs' type of a row without its own: its schema's kind in words. */
function typeOf(schema: z.ZodType): string {
  const whole = wholeNumberOf(schema);
  if (whole !== undefined) return wholeNumberWords(whole).replace(/^a /, '');
  if (schema instanceof z.ZodEnum) return schema.options.map((option) => `\`${String(option)}\``).join(' | ');
  if (schema instanceof z.ZodBoolean) return 'boolean';
  return 'string';
}

/** The flag column: `--base-url`, env `SCHEMA_SYNC_BASE_URL`; a boolean's `--no-` form; a repeatable flag said so. */
function flagOf(row: (typeof SETTING_ROWS)[number]): string {
  const parts: string[] = [];
  if (row.flag !== undefined) {
    const name = row.flag.name ?? kebab(row.key);
    parts.push(row.schema instanceof z.ZodBoolean ? `\`--${name}\`, \`--no-${name}\`` : `\`--${name}\`${row.flag.repeatable ? ' (repeatable)' : ''}`);
  }
  if (row.variable !== undefined) parts.push(`env \`${row.variable}\``);
  return parts.join(', ');
}

/**
 * The key table of docs/configuration.md, from the settings table: every key a config file may
 * hold, in the config schema's order, with its type, default, flag and variable, and what it does.
 * `npm run config-schema` writes it between the table's markers; a test fails when the committed
 * one is stale.
 */
export function configKeyTable(): string {
  const lines: KeyLine[] = [SCHEMA_KEY];
  for (const row of SETTING_ROWS) {
    if (row.file === false) continue;
    lines.push([row.key, row.type ?? typeOf(row.schema), row.default ?? '', flagOf(row), row.doc]);
    if (row.key === 'prettier') lines.push(FORMAT_KEY);
  }
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  return [
    '| key | type | default | flag | meaning |',
    '|---|---|---|---|---|',
    ...lines.map(([key, ...rest]) => `| \`${key}\` | ${rest.map(cell).join(' | ')} |`.replace(/ {2,}\|/g, ' |')),
  ].join('\n');
}

/** The markers around the key table in docs/configuration.md. */
export const KEY_TABLE_MARKERS = {
  start: '<!-- The key table is written from src/config/settings-table.ts by `npm run config-schema`. -->',
  end: '<!-- End of the key table. -->',
} as const;

/** The text of docs/configuration.md with its key table as the settings table gives it. */
export function withKeyTable(docs: string): string {
  const start = docs.indexOf(KEY_TABLE_MARKERS.start);
  const end = docs.indexOf(KEY_TABLE_MARKERS.end);
  if (start < 0 || end < start) throw new Error('docs/configuration.md has no key table markers');
  return `${docs.slice(0, start + KEY_TABLE_MARKERS.start.length)}\n\n${configKeyTable()}\n\n${docs.slice(end)}`;
}

import { RULE_IDS, SEVERITIES } from './rules.js';
import { ruleRows, rulesTableLines } from './rules-listing.js';

/**
 * The copies of the rule table that are published as files: the rule ids and severities of
 * report.schema.json, and the listing in docs/rules.md. Each is written by
 * `npm run config-schema` (scripts/write-config-schema.mjs) from the committed file, replacing
 * only what the table determines; test/diff/rule-copies.test.ts fails when a committed copy is
 * stale.
 */

/** The marker lines around the listing in docs/rules.md. */
export const RULES_DOC_MARKERS = {
  start: '<!-- rule listing: written from src/diff/rules.ts by `npm run config-schema`; edit the table, not this -->',
  end: '<!-- end of rule listing -->',
} as const;

/** report.schema.json's text with `definitions.severity` and `definitions.ruleId` listing the table's severities and ids. */
export function reportSchemaText(committed: string): string {
  const schema = JSON.parse(committed) as { definitions: Record<string, Record<string, unknown>> };
  schema.definitions['severity'] = { ...schema.definitions['severity'], enum: [...SEVERITIES] };
  schema.definitions['ruleId'] = { ...schema.definitions['ruleId'], enum: [...RULE_IDS] };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

/** docs/rules.md's text with the listing between its markers as `schema-sync rules` prints it without a config. */
export function rulesDocText(committed: string): string {
  const start = committed.indexOf(RULES_DOC_MARKERS.start);
  const end = committed.indexOf(RULES_DOC_MARKERS.end, start);
  if (start === -1 || end === -1) throw new Error(`docs/rules.md has no rule listing between "${RULES_DOC_MARKERS.start}" and "${RULES_DOC_MARKERS.end}"`);
  const listing = ['```text', ...rulesTableLines(ruleRows(undefined)), '```'].join('\n');
  return `${committed.slice(0, start)}${RULES_DOC_MARKERS.start}\n${listing}\n${committed.slice(end)}`;
}

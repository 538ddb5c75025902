/**
 * The copies of the rule table that are committed as files (report.schema.json's rule ids and
 * severities, the rule listing in docs/rules.md) are what `npm run config-schema` writes from the
 * table: a stale copy fails here.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportSchemaText, rulesDocText, RULES_DOC_MARKERS } from '../../src/diff/rule-copies.js';
import { ROOT } from '../helpers/cli.js';

const committed = (path: string): Promise<string> => readFile(join(ROOT, path), 'utf8');

describe('the committed copies of the rule table', () => {
  it('report.schema.json lists the table\'s rule ids and severities (else run `npm run config-schema`)', async () => {
    const text = await committed('report.schema.json');
    expect(text).toBe(reportSchemaText(text));
  });

  it('docs/rules.md shows the listing `schema-sync rules` prints (else run `npm run config-schema`)', async () => {
    const text = await committed('docs/rules.md');
    expect(text).toBe(rulesDocText(text));
  });

  it('a stale copy differs from the one written: an id missing, a severity or description out of date', async () => {
    const schema = await committed('report.schema.json');
    const stale = schema.replace('        "MNUM_CHANGED",\n', '');
    expect(stale).not.toBe(schema);
    expect(reportSchemaText(stale)).toBe(schema);
    const doc = await committed('docs/rules.md');
    const staleDoc = doc.replace(/^(MNUM_CHANGED +)breaking/m, '$1safe    ');
    expect(staleDoc).not.toBe(doc);
    expect(rulesDocText(staleDoc)).toBe(doc);
  });

  it('refuses a page without the listing\'s markers, naming them', () => {
    expect(() => rulesDocText('# Drift rules\n')).toThrow(RULES_DOC_MARKERS.start);
  });
});

/**
 * report.schema.json, the published shape of `--format json`: real reports validate against the
 * very file the package ships, and the validator refuses what the shape refuses.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReport, diffDescriptors, renderReport, RULE_IDS, type DriftReport } from '../../src/diff/index.js';
import { ROOT } from '../helpers/cli.js';
import { validateJson } from '../helpers/json-schema.js';
import { makeField } from '../../src/model/field.js';
import { descriptor } from './descriptor-fixture.js';
import { hostileReport, inSyncReport, reviewedReport, sampleReport } from './report-fixture.js';

const schema = JSON.parse(await readFile(join(ROOT, 'report.schema.json'), 'utf8')) as Record<string, unknown>;
const json = (report: DriftReport): unknown => JSON.parse(renderReport(report, { format: 'json', command: 'check' }));

describe('report.schema.json', () => {
  it('is shipped and exported by the package', async () => {
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { files: string[]; exports: Record<string, string> };
    expect(pkg.files).toContain('report.schema.json');
    expect(pkg.exports['./report.schema.json']).toBe('./report.schema.json');
  });

  it('lists exactly the rule ids of the rule table', () => {
    expect((schema['definitions'] as { ruleId: { enum: string[] } }).ruleId.enum).toEqual([...RULE_IDS]);
  });

  const reports: { name: string; report: () => DriftReport }[] = [
    { name: 'in sync', report: inSyncReport },
    { name: 'every kind, a stale file', report: sampleReport },
    { name: 'accepted changes and a setting that differs', report: reviewedReport },
    { name: 'hostile strings', report: hostileReport },
    {
      name: 'a diff of real descriptors (field absent after, rename with more fields)',
      report: () =>
        buildReport({
          changes: diffDescriptors({
            locked: [descriptor('A', { mNum: 1, extra: { desc: 'x' } }), descriptor('B', { mNum: 2 })],
            fetched: [descriptor('A', { mNum: 1 }), descriptor('C', { mNum: 2, mToken: 'Other' })],
          }),
        }),
    },
    {
      name: 'a shift of record fields (one change listing every moved and renumbered field)',
      report: () => {
        const fields = (first: number) => ['a', 'b', 'c'].map((name, i) => makeField({ name, fType: 'Int', pos: first + i, fNum: 10 + first + i }, {}));
        return buildReport({ changes: diffDescriptors({ locked: [descriptor('A', { fields: fields(1) })], fetched: [descriptor('A', { schemaHash: 'BBBB', fields: fields(2) })] }) });
      },
    },
  ];
  it.each(reports)('validates a report: $name', ({ report }) => {
    expect(validateJson(schema, json(report()))).toEqual([]);
  });

  it('refuses what the contract does not hold', () => {
    const valid = json(sampleReport()) as { changes: Array<Record<string, unknown>>; summary: Record<string, unknown> };
    const withoutRule = structuredClone(valid);
    delete withoutRule.changes[0]!['rule'];
    expect(validateJson(schema, withoutRule)).toContain('$.changes[0]: matches 0 of the oneOf options');
    const unknownRule = structuredClone(valid);
    unknownRule.changes[1]!['rule'] = 'MESSAGE_GONE';
    expect(validateJson(schema, unknownRule).join('\n')).toContain('matches 0 of the oneOf options');
    const extra = { ...valid, messageCount: 3 };
    expect(validateJson(schema, extra)).toEqual(['$.messageCount: not allowed']);
    const noAccepted = structuredClone(valid) as Record<string, unknown>;
    delete noAccepted['accepted'];
    expect(validateJson(schema, noAccepted)).toEqual(['$: missing accepted']);
  });
});

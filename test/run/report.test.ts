/**
 * The report of a run with its redactor: what it quotes from outside (names, fields, values, file
 * paths, settings) is masked; its own words (kinds, severities, rule ids, the summary) are not,
 * also when the key is one of them.
 */
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/model/redact.js';
import { reportFor } from '../../src/run/report.js';

describe('reportFor with the run redactor', () => {
  const input = {
    changes: [
      { kind: 'renamed' as const, name: 'new-k9', before: { name: 'old-k9', mNum: 1 }, after: { name: 'new-k9', mNum: 1 }, fields: [{ field: 'name', before: 'old-k9', after: 'new-k9', rule: 'MESSAGE_RENAMED' as const }] },
      { kind: 'changed' as const, name: 'Order', fields: [{ field: 'desc', before: 'for k9', after: { 'k9': ['k9 x'] }, rule: 'DESCRIPTION_CHANGED' as const }] },
      { kind: 'removed' as const, name: 'Gone', before: { mNum: 3 } },
      { kind: 'added' as const, name: 'new-k9', after: { mNum: 4 }, note: { module: 'messages/new_k9__0a1b2c3d', caseClashWith: 'NEW-k9' } },
    ],
    staleFiles: [{ path: 'messages/k9.ts', reason: 'extra' as const }],
    settingsDiffer: [{ setting: 'packageName', recorded: 'k9', given: undefined }],
  };

  it('masks the values it quotes, and only those', () => {
    const report = reportFor(() => undefined, { redact: createRedactor(['k9']) }, input);
    expect(JSON.stringify(report)).not.toMatch(/k9/);
    expect(report.changes.map((change) => change.name)).toEqual(['Gone', 'new-***', 'Order', 'new-***']);
    expect(report.changes[3]).toMatchObject({ note: { module: 'messages/new_***__0a1b2c3d', caseClashWith: 'NEW-***' } });
    expect(report.changes[1]).toMatchObject({ before: { name: 'old-***' }, after: { name: 'new-***' }, fields: [{ before: 'old-***', after: 'new-***' }] });
    expect(report.changes[2]).toMatchObject({ fields: [{ field: 'desc', before: 'for ***', after: { '***': ['*** x'] } }] });
    expect(report.staleFiles).toEqual([{ path: 'messages/***.ts', reason: 'extra' }]);
    expect(report.settings).toEqual([{ setting: 'packageName', recorded: '***', given: undefined }]);
  });

  it('keeps its own words when the key is one of them', () => {
    const report = reportFor(() => undefined, { redact: createRedactor(['removed', 'extra', 'safe']) }, input);
    expect(report).toEqual(reportFor(() => undefined, {}, input));
  });
});

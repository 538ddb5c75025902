import { describe, expect, it } from 'vitest';
import { renderReport, type DriftReport } from '../../src/diff/index.js';
import { inSyncReport, sampleReport } from './report-fixture.js';

describe('renderReport json', () => {
  it('prints exactly one object of the SPEC shape', () => {
    const text = renderReport(sampleReport(), { format: 'json', command: 'check', color: true });
    expect(text).toBe(JSON.stringify(JSON.parse(text), null, 2));
    const parsed = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['inSync', 'summary', 'changes', 'accepted', 'staleFiles', 'settings']);
    // An absent `before` is left out rather than invented as null.
    expect(parsed).toEqual(JSON.parse(JSON.stringify(sampleReport())));
  });

  it('in sync', () => {
    expect(renderReport(inSyncReport(), { format: 'json', command: 'check' })).toBe(
      [
        '{',
        '  "inSync": true,',
        '  "summary": {',
        '    "added": 0,',
        '    "removed": 0,',
        '    "changed": 0,',
        '    "renamed": 0,',
        '    "breaking": 0,',
        '    "dangerous": 0,',
        '    "safe": 0,',
        '    "accepted": 0',
        '  },',
        '  "changes": [],',
        '  "accepted": [],',
        '  "staleFiles": [],',
        '  "settings": []',
        '}',
      ].join('\n'),
    );
  });

  it('a removal, exactly', () => {
    const report: DriftReport = {
      inSync: false,
      summary: { added: 0, removed: 1, changed: 0, renamed: 0, breaking: 1, dangerous: 0, safe: 0, accepted: 0 },
      changes: [{ kind: 'removed', name: 'OldType', rule: 'MESSAGE_REMOVED', severity: 'breaking', before: { mNum: 1 } }],
      accepted: [],
      staleFiles: [],
      settings: [],
    };
    expect(JSON.parse(renderReport(report, { format: 'json', command: 'pull' }))).toEqual({
      inSync: false,
      summary: { added: 0, removed: 1, changed: 0, renamed: 0, breaking: 1, dangerous: 0, safe: 0, accepted: 0 },
      changes: [{ kind: 'removed', name: 'OldType', rule: 'MESSAGE_REMOVED', severity: 'breaking', before: { mNum: 1 } }],
      accepted: [],
      staleFiles: [],
      settings: [],
    });
  });

  it('carries nothing beyond the contract', () => {
    const report = { ...inSyncReport(), messageCount: 264, secret: 'x' } as DriftReport;
    expect(Object.keys(JSON.parse(renderReport(report, { format: 'json', command: 'check' })) as object)).toEqual([
      'inSync',
      'summary',
      'changes',
      'accepted',
      'staleFiles',
      'settings',
    ]);
  });
});

import { buildReport, type DriftChange, type DriftReport, type StaleFile } from '../../src/diff/index.js';

/** A report with one change of each kind and severity, and one stale file. */
export function sampleReport(): DriftReport {
  return buildReport(sampleReportInput());
}

function sampleReportInput(): { changes: DriftChange[]; staleFiles: StaleFile[] } {
  return {
    changes: [
      { kind: 'removed', name: 'OldType', severity: 'breaking', before: { mNum: 1 } },
      {
        kind: 'renamed',
        name: 'NewName',
        severity: 'breaking',
        before: { name: 'Was', mNum: 5 },
        after: { name: 'NewName', mNum: 5 },
        fields: [
          { field: 'name', before: 'Was', after: 'NewName', severity: 'breaking', rule: 'MESSAGE_RENAMED' },
          { field: 'hasCF', before: false, after: true, severity: 'dangerous', rule: 'CLIENT_FIRM_CHANGED' },
        ],
      },
      {
        kind: 'changed',
        name: 'SomeType',
        severity: 'dangerous',
        fields: [
          { field: 'schemaHash', before: '6F89', after: '0A1B', severity: 'dangerous', rule: 'SCHEMA_HASH_CHANGED' },
          { field: 'topic', before: undefined, after: 'a/b', severity: 'safe', rule: 'OTHER_FIELD_CHANGED' },
        ],
      },
      { kind: 'added', name: 'Fresh', severity: 'safe', after: { mNum: 9 } },
    ],
    staleFiles: [{ path: 'messages/OldType.ts', reason: 'extra' }],
  };
}

/** A report whose server-chosen strings try to break out of every format. */
export function hostileReport(): DriftReport {
  return buildReport({
    changes: [
      {
        kind: 'changed',
        name: 'Evil\n::error::pwned',
        severity: 'safe',
        fields: [
          { field: 'desc', before: 'a|b', after: '\u001b[31mred\r\n%0A`tick`', severity: 'safe', rule: 'DESCRIPTION_CHANGED' },
          { field: 'x\u009bk', before: 1, after: 2, severity: 'safe', rule: 'OTHER_FIELD_CHANGED' },
        ],
      },
    ],
    staleFiles: [{ path: 'messages/a,b:c%.ts', reason: 'modified' }],
  });
}

/** An empty report. */
export function inSyncReport(): DriftReport {
  return buildReport({ changes: [] });
}

/** The sample with one change accepted whole (the removal) and one field accepted (the rename's hasCF), and a setting that differs. */
export function reviewedReport(): DriftReport {
  return buildReport({
    ...sampleReportInput(),
    settings: [{ setting: 'include', recorded: undefined, given: ['Order*', { mToken: 'Trading' }] }],
    policy: {
      accept: [
        { rule: 'MESSAGE_REMOVED', message: 'Old*', reason: 'Replaced by NewType (#12)' },
        { rule: 'CLIENT_FIRM_CHANGED', message: 'Was', before: false, after: true, reason: 'Client firm filter wanted' },
      ],
    },
  });
}

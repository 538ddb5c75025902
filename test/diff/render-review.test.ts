/** The accepted section and settings that differ, in every report format. */
import { describe, expect, it } from 'vitest';
import { renderReport } from '../../src/diff/index.js';
import { reviewedReport } from './report-fixture.js';

describe('accepted changes and settings that differ', () => {
  it('text: own sections after the changes, each accepted change with its rule, severity and reason', () => {
    expect(renderReport(reviewedReport(), { format: 'text', command: 'check' })).toBe(
      [
        'Breaking',
        '  renamed Was → NewName (mNum 5) [MESSAGE_RENAMED]',
        '',
        'Dangerous',
        '  changed SomeType',
        '    schemaHash: "6F89" → "0A1B" [SCHEMA_HASH_CHANGED]',
        '    topic: (absent) → "a/b" [OTHER_FIELD_CHANGED] (safe)',
        '',
        'Safe',
        '  added Fresh (mNum 9) [MESSAGE_ADDED]',
        '',
        'Accepted (never fails)',
        '  renamed NewName · hasCF: false → true [CLIENT_FIRM_CHANGED] dangerous',
        '    reason: Client firm filter wanted',
        '  removed OldType (mNum 1) [MESSAGE_REMOVED] breaking',
        '    reason: Replaced by NewType (#12)',
        '',
        'Stale files',
        '  extra messages/OldType.ts',
        '  Run `schema-sync generate` to rewrite the output folder from the lockfile.',
        '',
        'Settings differ (lockfile → given)',
        '  include: (absent) → ["Order*", {"mToken": "Trading"}]',
        '  Run `schema-sync generate` (or `pull`) to apply them and record them in the lockfile, or change them back.',
        '',
        "Drift: 3 message types (1 breaking, 1 dangerous, 1 safe) · 1 stale file · 1 setting given differs from the lockfile's · 2 accepted changes",
      ].join('\n'),
    );
  });

  it('markdown: an accepted list with reasons, and the settings', () => {
    const text = renderReport(reviewedReport(), { format: 'markdown', command: 'diff' });
    expect(text.split('\n\n').slice(0, 2)).toEqual([
      '### Schema changes',
      "Changes: 3 message types (1 breaking, 1 dangerous, 1 safe) · 1 stale file · 1 setting given differs from the lockfile's · 2 accepted changes",
    ]);
    expect(text).toContain(
      [
        '**Accepted (never fails)**',
        '',
        '- renamed `NewName` · `hasCF`: `false` → `true` [CLIENT_FIRM_CHANGED] dangerous — Client firm filter wanted',
        '- removed `OldType` (mNum 1) [MESSAGE_REMOVED] breaking — Replaced by NewType (#12)',
      ].join('\n'),
    );
    expect(text).toContain('**Settings differ**\n\n- `include`: `(absent)` → `["Order*", {"mToken": "Trading"}]` (lockfile → given)');
  });

  it('github: a notice per accepted change on its lockfile entry, an error per setting', () => {
    const locations = { lockfile: 'schema-sync.lock.json', outDir: 'out', lineOf: (name: string) => (name === 'OldType' ? 4 : undefined) };
    const lines = renderReport(reviewedReport(), { format: 'github', command: 'check', locations }).split('\n');
    expect(lines.filter((line) => line.startsWith('::notice title=Accepted'))).toEqual([
      '::notice title=Accepted schema change,file=schema-sync.lock.json::renamed NewName · hasCF: false → true [CLIENT_FIRM_CHANGED] dangerous%0Areason: Client firm filter wanted',
      '::notice title=Accepted schema change,file=schema-sync.lock.json,line=4::removed OldType (mNum 1) [MESSAGE_REMOVED] breaking%0Areason: Replaced by NewType (#12)',
    ]);
    expect(lines.filter((line) => line.startsWith('::error title=Settings'))).toEqual([
      '::error title=Settings differ from the lockfile::include: (absent) → ["Order*", {"mToken": "Trading"}] (lockfile → given)%0ARun `schema-sync generate` (or `pull`) to apply them and record them in the lockfile, or change them back.',
    ]);
  });

  it('json: accepted with reasons (no internal index), settings with what is set', () => {
    const json = JSON.parse(renderReport(reviewedReport(), { format: 'json', command: 'check' })) as Record<string, unknown>;
    expect(json['accepted']).toEqual([
      { kind: 'renamed', name: 'NewName', rule: 'CLIENT_FIRM_CHANGED', severity: 'dangerous', field: 'hasCF', before: false, after: true, reason: 'Client firm filter wanted' },
      { kind: 'removed', name: 'OldType', rule: 'MESSAGE_REMOVED', severity: 'breaking', before: { mNum: 1 }, reason: 'Replaced by NewType (#12)' },
    ]);
    expect(json['settings']).toEqual([{ setting: 'include', given: ['Order*', { mToken: 'Trading' }] }]);
    expect(json['summary']).toMatchObject({ breaking: 1, accepted: 2 });
  });

  it('only accepted changes: in sync, and the summary says what was accepted', () => {
    const report = { ...reviewedReport(), changes: [], staleFiles: [], settings: [], inSync: true };
    expect(renderReport(report, { format: 'text', command: 'check' }).split('\n').at(-1)).toBe('In sync: 2 accepted changes');
    expect(renderReport(report, { format: 'text', command: 'pull' }).split('\n').at(-1)).toBe('Changed: 2 accepted changes');
  });
});

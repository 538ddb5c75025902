import { describe, expect, it } from 'vitest';
import { renderReport } from '../../src/diff/index.js';
import { hostileReport, inSyncReport, sampleReport } from './report-fixture.js';

const SAMPLE_BODY = [
  'Breaking',
  '  renamed Was → NewName (mNum 5) [MESSAGE_RENAMED]',
  '    hasCF: false → true [CLIENT_FIRM_CHANGED] (dangerous)',
  '  removed OldType (mNum 1) [MESSAGE_REMOVED]',
  '',
  'Dangerous',
  '  changed SomeType',
  '    schemaHash: "6F89" → "0A1B" [SCHEMA_HASH_CHANGED]',
  '    topic: (absent) → "a/b" [OTHER_FIELD_CHANGED] (safe)',
  '',
  'Safe',
  '  added Fresh (mNum 9) [MESSAGE_ADDED]',
  '',
  'Stale files',
  '  extra messages/OldType.ts',
  '  Run `schema-sync generate` to rewrite the output folder from the lockfile.',
  '',
].join('\n');

describe('renderReport text', () => {
  const cases: { name: string; command: 'check' | 'pull'; dryRun?: boolean; want: string }[] = [
    {
      name: 'check',
      command: 'check',
      want: `${SAMPLE_BODY}\nDrift: 4 message types (2 breaking, 1 dangerous, 1 safe) · 1 stale file`,
    },
    {
      name: 'pull',
      command: 'pull',
      want: `${SAMPLE_BODY}\nChanged: 4 message types (2 breaking, 1 dangerous, 1 safe) · 1 stale file`,
    },
    {
      name: 'pull --dry-run',
      command: 'pull',
      dryRun: true,
      want: `${SAMPLE_BODY}\nWould change: 4 message types (2 breaking, 1 dangerous, 1 safe) · 1 stale file`,
    },
  ];
  it.each(cases)('$name', ({ command, dryRun, want }) => {
    expect(renderReport(sampleReport(), { format: 'text', command, dryRun, color: false })).toBe(want);
  });

  const inSync: { name: string; command: 'check' | 'pull'; dryRun?: boolean; want: string }[] = [
    { name: 'check', command: 'check', want: 'In sync: no drift.' },
    { name: 'pull', command: 'pull', want: 'Up to date: nothing changed.' },
    { name: 'pull --dry-run', command: 'pull', dryRun: true, want: 'Up to date: nothing would change.' },
  ];
  it.each(inSync)('in sync, $name', ({ command, dryRun, want }) => {
    expect(renderReport(inSyncReport(), { format: 'text', command, dryRun })).toBe(want);
  });

  it('a stale symbolic link is to be removed before generate, which refuses to write through it; other stale files only need generate', async () => {
    const { buildReport } = await import('../../src/diff/index.js');
    const linked = buildReport({ changes: [], staleFiles: [{ path: 'messages', reason: 'symlink' }, { path: 'index.ts', reason: 'modified' }] });
    for (const format of ['text', 'markdown', 'github'] as const) {
      expect(renderReport(linked, { format, command: 'check' }), format).toContain('Remove the symbolic links first (schema-sync never writes through one). Run `schema-sync generate`');
    }
    const modified = buildReport({ changes: [], staleFiles: [{ path: 'index.ts', reason: 'modified' }] });
    expect(renderReport(modified, { format: 'text', command: 'check' })).not.toContain('symbolic');
  });

  it('singular wording for one change', () => {
    const report = { ...inSyncReport(), inSync: false, changes: sampleReport().changes.slice(-1) };
    report.summary = { ...report.summary, added: 1, safe: 1 };
    expect(renderReport(report, { format: 'text', command: 'check' })).toBe(
      'Safe\n  added Fresh (mNum 9) [MESSAGE_ADDED]\n\nDrift: 1 message type (0 breaking, 0 dangerous, 1 safe)',
    );
  });

  it('colours the group headings red, yellow, green only with color: true', () => {
    const coloured = renderReport(sampleReport(), { format: 'text', command: 'check', color: true });
    expect(coloured).toContain('\u001b[1;31mBreaking\u001b[0m');
    expect(coloured).toContain('\u001b[1;33mDangerous\u001b[0m');
    expect(coloured).toContain('\u001b[1;32mSafe\u001b[0m');
    expect(coloured).toContain('\u001b[1;31mStale files\u001b[0m');
    // Without the escape codes it is the plain text, byte for byte.
    expect(coloured.replace(/\u001b\[[0-9;]*m/g, '')).toBe(
      renderReport(sampleReport(), { format: 'text', command: 'check' }),
    );
  });

  it('lets no server string inject escape codes or lines', () => {
    const text = renderReport(hostileReport(), { format: 'text', command: 'check', color: false });
    expect(text).toBe(
      [
        'Safe',
        '  changed "Evil\\n::error::pwned"',
        '    desc: "a|b" → "\\u001b[31mred\\r\\n%0A`tick`" [DESCRIPTION_CHANGED]',
        '    "x\\u009bk": 1 → 2 [OTHER_FIELD_CHANGED]',
        '',
        'Stale files',
        '  modified messages/a,b:c%.ts',
        '  Run `schema-sync generate` to rewrite the output folder from the lockfile.',
        '',
        'Drift: 1 message type (0 breaking, 0 dangerous, 1 safe) · 1 stale file',
      ].join('\n'),
    );
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });
});

describe('many additions', () => {
  it('lists the first 20 of more than 50 added types, then how many more', async () => {
    const { renderReport, buildReport } = await import('../../src/diff/index.js');
    const changes = Array.from({ length: 60 }, (_, i) => ({
      kind: 'added' as const,
      name: `T${String(i).padStart(2, '0')}`,
      severity: 'safe' as const,
      after: { mNum: i },
    }));
    const text = renderReport(buildReport({ changes }), { format: 'text', command: 'pull' });
    expect(text).toContain('  added T19 (mNum 19)');
    expect(text).not.toContain('T20');
    expect(text).toContain('  … and 40 more added (--format json lists them all)');
    const json = JSON.parse(renderReport(buildReport({ changes }), { format: 'json', command: 'pull' }));
    expect(json.changes).toHaveLength(60);
  });
});

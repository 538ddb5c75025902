/** The int64 setting as a generation setting: given over recorded, recorded only when not `number`, compared, resolved for the plan. */
import { describe, expect, it } from 'vitest';
import type { GenerationSettings } from '../../src/model/lockfile.js';
import { outputSettings, settingsDiffer, settingsOver } from '../../src/run/run-context.js';

const paths = { cwd: '/p', outDir: '/p/out', lockfilePath: '/p/schema-sync.lock.json' };

describe('the int64 setting', () => {
  const rows: { name: string; recorded: GenerationSettings; given: Parameters<typeof settingsOver>[1]; want: GenerationSettings }[] = [
    { name: 'nothing recorded, nothing given: nothing recorded', recorded: { fields: true }, given: {}, want: { fields: true } },
    { name: 'given: recorded', recorded: { fields: true }, given: { int64: 'bigint' }, want: { fields: true, int64: 'bigint' } },
    { name: 'not given: as recorded', recorded: { fields: true, int64: 'string' }, given: {}, want: { fields: true, int64: 'string' } },
    { name: 'the default given: the record cleared', recorded: { fields: true, int64: 'string' }, given: { int64: 'number' }, want: { fields: true } },
  ];
  it.each(rows)('$name', ({ recorded, given, want }) => {
    expect(settingsOver(recorded, given)).toEqual(want);
  });

  it('another setting than the recorded one differs; the default against none does not', () => {
    expect(settingsDiffer({ fields: true }, { int64: 'bigint' })).toEqual([{ setting: 'int64', recorded: undefined, given: 'bigint' }]);
    expect(settingsDiffer({ fields: true, int64: 'bigint' }, { int64: 'string' })).toEqual([{ setting: 'int64', recorded: 'bigint', given: 'string' }]);
    expect(settingsDiffer({ fields: true, int64: 'bigint' }, { int64: 'number' })).toEqual([{ setting: 'int64', recorded: 'bigint', given: undefined }]);
    expect(settingsDiffer({ fields: true }, { int64: 'number' })).toEqual([]);
    expect(settingsDiffer({ fields: true, int64: 'bigint' }, {})).toEqual([]);
  });

  it('is resolved for the plan: number when none is recorded', () => {
    expect(outputSettings(paths, {}).int64).toBe('number');
    expect(outputSettings(paths, { int64: 'string' }).int64).toBe('string');
  });
});

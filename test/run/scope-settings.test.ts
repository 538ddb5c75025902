/** The scope as a generation setting: given over recorded, compared, and part of the plan key. */
import { describe, expect, it } from 'vitest';
import { outputSettingsKey } from '../../src/emit/plan-output.js';
import type { GenerationSettings } from '../../src/model/lockfile.js';
import { sameSettings, settingsDiff, settingsOver } from '../../src/run/run-context.js';

describe('include / exclude settings', () => {
  const recorded: GenerationSettings = { packageName: 'p', include: ['Order*'], exclude: [{ mToken: 'Risk' }] };
  const rows: { name: string; given: Parameters<typeof settingsOver>[1]; want: GenerationSettings }[] = [
    { name: 'nothing given: as recorded', given: {}, want: recorded },
    { name: 'given: replaces the recorded list', given: { include: ['Quote'] }, want: { ...recorded, include: ['Quote'] } },
    { name: 'an empty list clears it', given: { include: [], exclude: [] }, want: { packageName: 'p' } },
  ];
  it.each(rows)('$name', ({ given, want }) => {
    expect(settingsOver(recorded, given)).toEqual(want);
  });

  it('differences are named by setting, compared as JSON', () => {
    expect(sameSettings(recorded, { ...recorded, exclude: [{ mToken: 'Risk' }] })).toBe(true);
    expect(settingsDiff(recorded, { packageName: 'p', include: ['Order*', 'Quote'] })).toEqual([
      { setting: 'include', recorded: ['Order*'], given: ['Order*', 'Quote'] },
      { setting: 'exclude', recorded: [{ mToken: 'Risk' }], given: undefined },
    ]);
  });

  it('the scope is part of the plan key; an unscoped key is the one it always was', async () => {
    const plain = await outputSettingsKey({});
    expect(await outputSettingsKey({ scope: {} })).toBe(plain);
    expect(await outputSettingsKey({ scope: { include: [] } })).toBe(plain);
    const keys = new Set([plain, await outputSettingsKey({ scope: { include: ['A'] } }), await outputSettingsKey({ scope: { exclude: ['A'] } }), await outputSettingsKey({ scope: { include: [{ mToken: 'A' }] } })]);
    expect(keys.size).toBe(4);
  });
});

/** The scope as a generation setting: given over recorded, compared, and part of the plan key. */
import { describe, expect, it } from 'vitest';
import { planSettingsKey } from '../../src/emit/plan-key.js';
import type { PlanSettings } from '../../src/emit/plan.js';

const outputSettingsKey = (settings: PlanSettings) => planSettingsKey(settings, undefined);
import type { GenerationSettings } from '../../src/model/lockfile.js';
import { sameSettings, settingsDiffer, settingsOver } from '../../src/run/run-context.js';

describe('include / exclude settings', () => {
  const recorded: GenerationSettings = { package: 'p', packageVersion: '1.0.0', include: ['Order*'], exclude: [{ mToken: 'Risk' }] };
  const rows: { name: string; given: Parameters<typeof settingsOver>[1]; want: GenerationSettings }[] = [
    { name: 'nothing given: as recorded', given: {}, want: recorded },
    { name: 'given: replaces the recorded list', given: { include: ['Quote'] }, want: { ...recorded, include: ['Quote'] } },
    { name: 'an empty list clears it', given: { include: [], exclude: [] }, want: { package: 'p', packageVersion: '1.0.0' } },
  ];
  it.each(rows)('$name', ({ given, want }) => {
    expect(settingsOver(recorded, given)).toEqual(want);
  });

  it('differences are named by setting, compared as JSON; only settings given count', () => {
    expect(sameSettings(recorded, { ...recorded, exclude: [{ mToken: 'Risk' }] })).toBe(true);
    expect(settingsDiffer(recorded, { include: ['Order*', 'Quote'], exclude: [] })).toEqual([
      { setting: 'include', recorded: ['Order*'], given: ['Order*', 'Quote'] },
      { setting: 'exclude', recorded: [{ mToken: 'Risk' }], given: undefined },
    ]);
    expect(settingsDiffer(recorded, { include: ['Order*'], package: 'p', prettier: false })).toEqual([]);
    // A package recorded before versions were: the default version it gets is not a difference.
    expect(settingsDiffer({ package: 'p' }, {})).toEqual([]);
  });

  it('the scope is part of the plan key; an unscoped key is the one it always was', async () => {
    const plain = await outputSettingsKey({});
    expect(await outputSettingsKey({ scope: {} })).toBe(plain);
    expect(await outputSettingsKey({ scope: { include: [] } })).toBe(plain);
    const keys = new Set([plain, await outputSettingsKey({ scope: { include: ['A'] } }), await outputSettingsKey({ scope: { exclude: ['A'] } }), await outputSettingsKey({ scope: { include: [{ mToken: 'A' }] } })]);
    expect(keys.size).toBe(4);
  });
});

/**
 * Every whole-number setting speaks its own words (issue 41, item 3): a bad value of its flag (and
 * of its environment variable, where it has one) exits 2 with `--timeout takes a whole number of
 * milliseconds from 1 (got "abc")`, never in a library's words ("NaN", "received", "expected int").
 * The cases come from the settings table's whole-number rows, so a new one is covered by its row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTING_ROWS } from '../../src/config/settings.js';
import { wholeNumberOf, wholeNumberWords } from '../../src/config/setting-values.js';
import { kebab } from '../../src/util/case.js';
import { removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';

/** A command that takes settings of each part of a run. */
const COMMAND = { source: 'check', output: 'generate', pull: 'pull', report: 'check', impact: 'check', review: 'check' } as const;

const numeric = SETTING_ROWS.flatMap((row) => {
  const bounds = wholeNumberOf(row.schema);
  return bounds === undefined ? [] : [{ row, bounds, command: COMMAND[row.takes[0]!] }];
});

/** The bad values of a whole-number setting: words, a fraction, an exponent, empty, and each side of its bounds. */
const badValues = (bounds: { min: number; max?: number }) => ['abc', '2.5', '1e3', '', String(bounds.min - 1), ...(bounds.max === undefined ? [] : [String(bounds.max + 1)])];

let dir: string;
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  await removeDir(dir);
});

describe('whole-number settings in their own words', () => {
  it('has the rows it is about', () => {
    expect(numeric.map(({ row }) => row.key)).toEqual(['limit', 'timeout', 'retries', 'maxBytes', 'lockWait']);
  });

  it.each(numeric.map(({ row, bounds, command }) => [row.key, row, bounds, command] as const))('%s: every bad flag or variable value exits 2 in the setting\'s words', async (_, row, bounds, command) => {
    const words = wholeNumberWords(bounds);
    for (const value of badValues(bounds)) {
      const flag = `--${row.flag?.name ?? kebab(row.key)}`;
      const sources: Array<{ args: string[]; env: Record<string, string>; name: string }> = [{ args: [`${flag}=${value}`], env: {}, name: flag }];
      if (row.variable !== undefined && value !== '') sources.push({ args: [], env: { [row.variable]: value }, name: row.variable });
      for (const source of sources) {
        const run = await runCli([command, ...source.args], { cwd: dir, env: source.env });
        expect(run.code, `${source.name} ${JSON.stringify(value)}: ${run.stderr}`).toBe(2);
        const shown = /^[+-]?\d+$/.test(value) ? value : JSON.stringify(value);
        expect(run.stderr).toContain(`${source.name} takes ${words} (got ${shown})`);
        expect(run.stderr).not.toMatch(/NaN|received|expected int/);
      }
    }
  });

  it('says the same of a config key', async () => {
    const { writeFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    await writeFile(join(dir, 'schema-sync.config.json'), JSON.stringify({ timeout: 'abc', limit: 2.5, retries: -1 }));
    try {
      const run = await runCli(['check'], { cwd: dir });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('"timeout" takes a whole number of milliseconds from 1 (got "abc")');
      expect(run.stderr).toContain('"limit" takes a whole number from 1 to 10000 (got 2.5)');
      expect(run.stderr).toContain('"retries" takes a whole number from 0 to 10 (got -1)');
      expect(run.stderr).not.toMatch(/NaN|received|expected int/);
    } finally {
      await removeDir(join(dir, 'schema-sync.config.json'));
    }
  });
});

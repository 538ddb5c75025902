/** `schema-sync rules`: the rule table with default and configured severities; config `rules` and `accept` refused when they name no rule. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULES } from '../../src/diff/index.js';
import { removeDir, tempDir } from '../helpers/cli.js';
import { runInProcess } from './fake-io.js';

let dir: string;
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(() => removeDir(dir));

const config = (json: unknown) => writeFile(join(dir, 'schema-sync.config.json'), JSON.stringify(json));

describe('schema-sync rules', () => {
  it('text: one aligned row per rule, configured severities marked', async () => {
    await config({ rules: { SCHEMA_HASH_CHANGED: 'safe', FIELD_APPEARED: 'off' } });
    const run = await runInProcess(['rules'], { cwd: dir });
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^RULE {2,}DEFAULT {2,}CONFIGURED {2,}DESCRIPTION$/);
    expect(lines).toHaveLength(RULES.length + 3);
    expect(lines.find((line) => line.startsWith('SCHEMA_HASH_CHANGED '))).toMatch(/^SCHEMA_HASH_CHANGED +dangerous {2}safe \* {6}schemaHash changed: the message's own schema changed\.$/);
    expect(lines.find((line) => line.startsWith('FIELD_APPEARED '))).toMatch(/ safe {7}off \* {7}A descriptor field/);
    // Aligned: every description starts in the same column.
    const column = lines[0]!.indexOf('DESCRIPTION');
    for (const line of lines.slice(1, -2)) expect(line.slice(column - 2, column + 1)).toMatch(/^ {2}\S$/);
    expect(lines.at(-1)).toBe('* set by "rules" in the config (2).');
  });

  it('json: { rules: [{ id, default, severity, description }] }', async () => {
    await config({ rules: { MESSAGE_ADDED: 'dangerous' } });
    const run = await runInProcess(['rules', '--format', 'json'], { cwd: dir });
    const parsed = JSON.parse(run.stdout) as { rules: Array<{ id: string; default: string; severity: string; description: string }> };
    expect(parsed.rules.map((rule) => rule.id)).toEqual(RULES.map((rule) => rule.id));
    expect(parsed.rules.find((rule) => rule.id === 'MESSAGE_ADDED')).toEqual({ id: 'MESSAGE_ADDED', default: 'safe', severity: 'dangerous', description: 'A message type is new.' });
  });

  it('markdown or github is a usage error', async () => {
    const run = await runInProcess(['rules', '--format', 'markdown'], { cwd: dir });
    expect([run.code, run.stderr]).toEqual([2, 'error [USAGE]: rules prints a list as text or json, not markdown.\nhint: Use --format text or --format json. Run schema-sync rules --help.\n']);
  });

  it('a config naming an unknown rule is exit 2 with the closest rule id', async () => {
    await config({ rules: { SCHEMA_HASH_CHANGE: 'off' }, accept: [{ rule: 'MESSAGE_REMOVD', message: 'X*' }] });
    const run = await runInProcess(['rules'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"rules.SCHEMA_HASH_CHANGE": unknown rule id "SCHEMA_HASH_CHANGE" (did you mean "SCHEMA_HASH_CHANGED"?)');
    expect(run.stderr).toContain('"accept.0.rule": unknown rule id "MESSAGE_REMOVD" (did you mean "MESSAGE_REMOVED"?)');
    expect(run.stderr).toContain('"accept.0.reason": a reason is required: say why the change is fine');
  });
});

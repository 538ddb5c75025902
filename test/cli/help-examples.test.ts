/**
 * `--help` examples stay whole (issue 29 item 11): yargs wrapped them at the terminal's width,
 * mid-command. Each example's command is one line of the help, at any width.
 */
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/table.js';
import { helpText } from '../../src/cli/parser.js';
import { runInProcess } from './fake-io.js';

/** Whether `text` has a line that is exactly `command`, followed by its meaning on the same line or the next. */
function hasWholeLine(text: string, command: string, meaning: string): boolean {
  const lines = text.split('\n');
  return lines.some((line, i) =>
    line === `  ${command}` ? lines[i + 1]?.trim() === meaning : line.startsWith(`  ${command}  `) && line.slice(command.length + 2).trim() === meaning,
  );
}

const commands = (examples: readonly (readonly [string, string])[]) => examples.map(([command, meaning]) => [command.replace(/\$0/g, 'schema-sync'), meaning] as const);

describe('help examples', () => {
  it.each([...COMMANDS.map((command) => command.name), ''])('%s: every example is a whole command on its line, at 40, 80 and 200 columns', (name) => {
    const spec = COMMANDS.find((command) => command.name === name);
    for (const columns of [40, 80, 200]) {
      const text = helpText('(yargs text)', name, columns);
      const examples = spec ? commands(spec.examples) : [['schema-sync init', 'Write a starter schema-sync.config.json'] as const];
      for (const [command, meaning] of examples) expect(hasWholeLine(text, command, meaning), `${name} at ${columns}:\n${text}`).toBe(true);
      // A command stands beside its meaning only where the two fit the width.
      const whole = new Set(examples.map(([command]) => `  ${command}`));
      for (const line of text.split('\n')) if (line.startsWith('  schema-sync') && !whole.has(line)) expect(line.length, line).toBeLessThanOrEqual(Math.min(100, columns));
    }
  });

  it('the CLI prints them so on a narrow terminal, after the options; the top-level help ends with the exit codes', async () => {
    const diff = await runInProcess(['diff', '--help'], { cwd: '.', columns: 60 });
    expect(diff.code).toBe(0);
    expect(diff.stdout.indexOf('Examples:')).toBeGreaterThan(diff.stdout.indexOf('--format'));
    for (const [command, meaning] of commands(COMMANDS.find((command) => command.name === 'diff')!.examples)) expect(hasWholeLine(diff.stdout, command, meaning), diff.stdout).toBe(true);
    const top = await runInProcess(['--help'], { cwd: '.', columns: 60 });
    expect(top.stdout).toMatch(/\n {2}schema-sync check --format github\n {6}Exit 1 on drift, with GitHub annotations\n\nRun schema-sync <command> --help for its options\.\nExit codes: .*\n$/);
  });
});

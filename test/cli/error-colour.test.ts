/**
 * Errors and warnings are coloured on a terminal (issue 29 item 11): `error [CODE]` in red,
 * `warning` in yellow, on stderr when it is a TTY (or colour is forced), never when piped, with
 * NO_COLOR or --no-color. In-process, with the streams' isTTY and the environment injected.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../helpers/cli.js';
import { runInProcess } from './fake-io.js';

const RED_ERROR = '\u001b[1;31merror [USAGE]\u001b[0m: Unknown argument: --bsae-url\n';
const YELLOW_WARNING = '\u001b[33mwarning\u001b[0m: "format": "prettier" in ';

let dir: string;
beforeAll(async () => {
  dir = await tempDir();
  // A deprecated config key: every command that reads the config warns.
  await writeFile(join(dir, 'schema-sync.config.json'), JSON.stringify({ format: 'prettier' }));
});
afterAll(() => removeDir(dir));

const usageError = (options: { tty: boolean; env?: NodeJS.ProcessEnv; flags?: string[] }) =>
  runInProcess(['pull', '--bsae-url', 'x', ...(options.flags ?? [])], { cwd: dir, tty: options.tty, env: options.env ?? {} });

describe('error colour', () => {
  it.each([
    { name: 'a terminal', tty: true, coloured: true },
    { name: 'a pipe', tty: false, coloured: false },
    { name: 'a terminal with NO_COLOR', tty: true, env: { NO_COLOR: '1' }, coloured: false },
    { name: 'a terminal with --no-color', tty: true, flags: ['--no-color'], coloured: false },
    { name: 'a terminal with FORCE_COLOR=0', tty: true, env: { FORCE_COLOR: '0' }, coloured: false },
    { name: 'a pipe with FORCE_COLOR=1', tty: false, env: { FORCE_COLOR: '1' }, coloured: true },
    { name: 'a pipe with --color', tty: false, flags: ['--color'], coloured: true },
    { name: 'a pipe with --color and NO_COLOR', tty: false, flags: ['--color'], env: { NO_COLOR: '1' }, coloured: false },
  ])('on $name: coloured $coloured', async ({ tty, env, flags, coloured }) => {
    const run = await usageError({ tty, env, flags });
    expect(run.code).toBe(2);
    if (coloured) expect(run.stderr.startsWith(RED_ERROR), JSON.stringify(run.stderr)).toBe(true);
    else expect(run.stderr).toMatch(/^error \[USAGE\]: Unknown argument: --bsae-url\nhint: /);
  });

  it('a warning is yellow on a terminal, plain in a pipe', async () => {
    const tty = await runInProcess(['rules'], { cwd: dir, tty: true, env: {} });
    expect(tty.code).toBe(0);
    expect(tty.stderr.startsWith(YELLOW_WARNING), JSON.stringify(tty.stderr)).toBe(true);
    const piped = await runInProcess(['rules'], { cwd: dir, tty: false, env: {} });
    expect(piped.stderr).toMatch(/^warning: "format": "prettier" in /);
  });
});

/**
 * Errors and warnings are coloured on a terminal (issue 29 item 11): `error [CODE]` in red,
 * `warning` in yellow, on stderr when it is a TTY (or colour is forced), never when piped, with
 * NO_COLOR or --no-color. In-process, with the streams' isTTY and the environment injected.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../helpers/cli.js';
import { renderError, useColor } from '../../src/cli/logger.js';
import { Capture, runInProcess } from './fake-io.js';

const RED_ERROR = '\u001b[1;31merror [USAGE]\u001b[0m: Unknown argument: --bsae-url\n';
const YELLOW_WARNING = '\u001b[33mwarning\u001b[0m: "format": "prettier" in ';

let dir: string;
beforeAll(async () => {
  dir = await tempDir();
  // A deprecated config key: every command that reads the config warns.
  await writeFile(join(dir, 'schema-sync.config.json'), JSON.stringify({ format: 'prettier' }));
});
afterAll(() => removeDir(dir));

const io = (tty: boolean, env: NodeJS.ProcessEnv = {}) => ({ stdout: new Capture(tty), stderr: new Capture(tty), stdin: process.stdin, env, cwd: dir });

describe('error colour', () => {
  it.each([
    { name: 'a terminal', tty: true, coloured: true },
    { name: 'a pipe', tty: false, coloured: false },
    { name: 'a terminal with NO_COLOR', tty: true, env: { NO_COLOR: '1' }, coloured: false },
    { name: 'a terminal with --no-color', tty: true, flag: false, coloured: false },
    { name: 'a terminal with FORCE_COLOR=0', tty: true, env: { FORCE_COLOR: '0' }, coloured: false },
    { name: 'a pipe with FORCE_COLOR=1', tty: false, env: { FORCE_COLOR: '1' }, coloured: true },
    { name: 'a pipe with --color', tty: false, flag: true, coloured: true },
    { name: 'a pipe with --color and NO_COLOR', tty: false, flag: true, env: { NO_COLOR: '1' }, coloured: false },
  ])('on $name: coloured $coloured', ({ tty, env, flag, coloured }) => {
    const color = useColor(io(tty, env), flag);
    expect(color).toBe(coloured);
    expect(renderError({ code: 'USAGE', message: 'Unknown argument: --bsae-url' }, color)).toBe(coloured ? RED_ERROR.trimEnd() : 'error [USAGE]: Unknown argument: --bsae-url');
  });

  // In a pipe the line is plain: test/cli/manners.test.ts ("usage errors").
  it('the CLI colours its error line on a terminal', async () => {
    const tty = await runInProcess(['pull', '--bsae-url', 'x'], { cwd: dir, tty: true, env: {} });
    expect(tty.code).toBe(2);
    expect(tty.stderr.startsWith(RED_ERROR), JSON.stringify(tty.stderr)).toBe(true);
  });

  it('a warning is yellow on a terminal', async () => {
    const tty = await runInProcess(['rules'], { cwd: dir, tty: true, env: {} });
    expect(tty.code).toBe(0);
    expect(tty.stderr.startsWith(YELLOW_WARNING), JSON.stringify(tty.stderr)).toBe(true);
  });
});

/**
 * What `pull` says at its end (issue 29 item 11): a first pull says how many types it locked
 * instead of listing each as added, and a pull that rewrote files without a schema change says so
 * instead of "Up to date: nothing changed". In-process, from a saved listing (no network).
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { smallListing } from '../helpers/listing.js';

let dir: string;
beforeAll(async () => {
  dir = await tempDir();
  await writeFile(join(dir, 'listing.json'), JSON.stringify(smallListing(3)));
});
afterAll(() => removeDir(dir));

const pull = (...extra: string[]) => runCli(['pull', '--input', 'listing.json', '--out', 'out', ...extra], { cwd: dir });

describe('the end of a pull', () => {
  it('a first pull says how many types it locked, in one line, and lists no additions (the JSON report keeps them)', async () => {
    const json = await pull('--dry-run', '--format', 'json');
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as { changes: { kind: string }[] }).changes.map((change) => change.kind)).toEqual(['added', 'added', 'added']);
    expect(json.stderr).toMatch(/^Would lock 3 types \(no lockfile before\) · dry run, nothing written \(\d+\.\d s\)\n$/);

    const first = await pull();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe('');
    expect(first.stderr).toMatch(/^Locked 3 types \(no lockfile before\) · \d+ files written in \d+\.\d s\n$/);
  });

  it('a pull with nothing to do is up to date', async () => {
    const again = await pull();
    expect(again.stdout).toBe('Up to date: nothing changed.\n');
    expect(again.stderr).toMatch(/^3 types · no changes · 0 files written in /);
  });

  it('a setting that rewrites the output, or a folder out of date, is not "up to date": it says what was written and why', async () => {
    const retargeted = await pull('--target', 'js+dts');
    expect(retargeted.code, retargeted.stderr).toBe(0);
    expect(retargeted.stdout).not.toMatch(/up to date/i);
    expect(retargeted.stderr).toMatch(/^3 types · no schema changes · \d+ files written, \d+ deleted \(settings changed\) in \d+\.\d s\n$/);

    await rm(join(dir, 'out', 'index.js'));
    const restored = await pull();
    expect(restored.stdout).not.toMatch(/up to date/i);
    expect(restored.stderr).toMatch(/^3 types · no schema changes · 1 file written \(the output folder was out of date\) in /);

    // The markdown report (a step summary, a PR body) says it too, instead of "Up to date".
    await rm(join(dir, 'out', 'index.js'));
    const markdown = await pull('--format', 'markdown');
    expect(markdown.stdout).toContain('No schema changes: 1 file rewritten from the lockfile.');
    expect(markdown.stdout).not.toMatch(/up to date/i);
  });

  it('counts one as one: "1 file written", not "1 files"', async () => {
    await rm(join(dir, 'out', 'index.js'));
    const generated = await runCli(['generate', '--out', 'out'], { cwd: dir });
    expect(generated.code, generated.stderr).toBe(0);
    expect(generated.stderr).toMatch(/^3 types · 1 file written, 0 deleted in /);
  });
});

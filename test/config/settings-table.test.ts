/**
 * Adding a generation setting is a row of the settings table (`src/config/settings-table.ts`) and
 * the renderer that reads it, nothing else: this test adds `eslintDisable`, a boolean that opens
 * every generated code file with an `/* eslint-disable *\/` line, by replacing the table module
 * (one row more) and the banner's renderer (`src/emit/banner.ts`, which reads it) alone;
 * everything else derives from the table where it is used. Followed through the CLI run in this
 * process on a saved listing: it is a flag (`--eslint-disable`, `--no-eslint-disable`), an
 * environment variable, a config key in config.schema.json and in the docs' key table, recorded in
 * the lockfile, reported by `check` under "Settings differ" when a run is given another value,
 * and a change of it re-renders exactly the files that read it (those with the banner).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { configJsonSchema } from '../../src/config/schema.js';
import { configKeyTable } from '../../src/config/key-table.js';
import { readTree, removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { smallListing } from '../helpers/listing.js';

vi.mock('../../src/config/settings-table.js', async (importOriginal) => {
  const { z } = await import('zod');
  const table = await importOriginal<typeof import('../../src/config/settings-table.js')>();
  const eslintDisable = {
    schema: z.boolean(),
    doc: 'open every generated code file with an `eslint-disable` comment',
    default: 'as recorded in the lockfile, else `false`',
    takes: ['output'],
    variable: 'SCHEMA_SYNC_ESLINT_DISABLE',
    flag: { describe: 'Open every generated code file with /* eslint-disable */ (or --no-eslint-disable)' },
    recorded: { unrecorded: false },
  } as const;
  return { ...table, SETTINGS: { ...table.SETTINGS, eslintDisable } };
});

/** The renderer that reads the setting: the banner, one line more when it is on (and that in what it reads). */
vi.mock('../../src/emit/banner.js', async (importOriginal) => {
  const { bannerOf } = await importOriginal<typeof import('../../src/emit/banner.js')>();
  return {
    bannerOf: (...args: Parameters<typeof bannerOf>) => {
      const banner = bannerOf(...args);
      if ((args[1] as { eslintDisable?: boolean }).eslintDisable !== true) return banner;
      return { view: [...banner.view, 'eslint-disable'], shared: `/* eslint-disable */\n${banner.shared}`, of: (message: { name: string; schemaHash: string }) => `/* eslint-disable */\n${banner.of(message)}` };
    },
  };
});

const LINE = '/* eslint-disable */';
let dir: string;
const run = (args: string[], env: Record<string, string> = {}) => runCli([...args, '--out', 'out'], { cwd: dir, env });
const source = ['--input', 'listing.json'];
/** The output folder's files but the manifest (which records every file's input). */
const outputFiles = async (): Promise<Map<string, string>> => {
  const tree = (await readTree(join(dir, 'out'))) as Map<string, string>;
  tree.delete('.schema-sync-manifest.json');
  return tree;
};
const recorded = async () => (JSON.parse(await readFile(join(dir, 'schema-sync.lock.json'), 'utf8')) as { settings: Record<string, unknown> }).settings;

beforeAll(async () => {
  dir = await tempDir();
  await writeFile(join(dir, 'listing.json'), JSON.stringify(smallListing(3)));
  const pulled = await run(['pull', ...source, '--quiet']);
  expect(pulled.code, pulled.stderr).toBe(0);
});
afterAll(() => removeDir(dir));

describe('a generation setting added as one row of the settings table (eslintDisable)', () => {
  it('is a flag of the commands that take the output, with its description', async () => {
    for (const command of ['pull', 'check', 'generate']) {
      const help = await runCli([command, '--help'], { cwd: dir });
      expect(help.stdout).toMatch(/--eslint-disable +Open every generated code file with \/\* eslint-disable \*\/ \(or\s+--no-eslint-disable\)/);
    }
  });

  it('is a config key in config.schema.json and in the docs\' key table, with its flag and variable', () => {
    expect((configJsonSchema()['properties'] as Record<string, unknown>)['eslintDisable']).toEqual({
      type: 'boolean',
      description: 'Open every generated code file with an eslint-disable comment. Default: as recorded in the lockfile, else false.',
    });
    expect(configKeyTable()).toContain(
      '| `eslintDisable` | boolean | as recorded in the lockfile, else `false` | `--eslint-disable`, `--no-eslint-disable`, env `SCHEMA_SYNC_ESLINT_DISABLE` | open every generated code file with an `eslint-disable` comment |',
    );
  });

  it('given, is recorded in the lockfile, and re-renders exactly the files that read it', async () => {
    const before = await outputFiles();
    expect([...before.values()].some((text) => text.includes(LINE))).toBe(false);
    const generated = await run(['generate', '--eslint-disable']);
    expect(generated.code, generated.stderr).toBe(0);
    expect(await recorded()).toEqual({ eslintDisable: true });
    const after = await outputFiles();
    const changed = [...after.keys()].filter((path) => after.get(path) !== before.get(path)).sort();
    const withBanner = [...after.keys()].filter((path) => /^\/\/ /.test(after.get(path)!.replace(`${LINE}\n`, ''))).sort();
    expect(changed).toEqual(withBanner);
    expect(changed).toEqual(['index.ts', 'messages/T0000.ts', 'messages/T0001.ts', 'messages/T0002.ts', 'types.ts']);
    for (const path of changed) expect(after.get(path)!.startsWith(`${LINE}\n`)).toBe(true);
    expect(generated.stderr + generated.stdout).toContain(`${changed.length} files written`);
  });

  it('is in sync as recorded; given another value by flag, variable or config key, check reports it under "Settings differ"', async () => {
    const inSync = await run(['check', ...source]);
    expect(inSync.code, inSync.stdout + inSync.stderr).toBe(0);
    const byFlag = await run(['check', ...source, '--no-eslint-disable']);
    const byVariable = await run(['check', ...source], { SCHEMA_SYNC_ESLINT_DISABLE: 'false' });
    await writeFile(join(dir, 'schema-sync.config.json'), JSON.stringify({ eslintDisable: false }));
    const byFile = await run(['check', ...source]);
    await removeDir(join(dir, 'schema-sync.config.json'));
    for (const checked of [byFlag, byVariable, byFile]) {
      expect(checked.code, checked.stderr).toBe(1);
      expect(checked.stdout).toContain('Settings differ (lockfile → given)\n  eslintDisable: true →');
    }
  });

  it('turned off by the variable, re-renders the same files back and is no longer recorded', async () => {
    const before = await outputFiles();
    const generated = await run(['generate'], { SCHEMA_SYNC_ESLINT_DISABLE: 'false' });
    expect(generated.code, generated.stderr).toBe(0);
    expect(await recorded()).toEqual({});
    const after = await outputFiles();
    expect([...after.keys()].filter((path) => after.get(path) !== before.get(path)).sort()).toEqual(['index.ts', 'messages/T0000.ts', 'messages/T0001.ts', 'messages/T0002.ts', 'types.ts']);
    expect([...after.values()].some((text) => text.includes(LINE))).toBe(false);
  });
});

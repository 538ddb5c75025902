import { realpathSync } from 'node:fs';
import { copyFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineConfig } from '../../src/index.js';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { removeDir, ROOT, runCommand, tempDir } from '../helpers/cli.js';
import { smallListing } from '../helpers/listing.js';
import { typecheckOwnFiles } from '../helpers/tsc.js';

// The package as another project sees it: a separate folder whose node_modules/schema-sync is
// this repository (built: npm test builds first), imported through package.json "exports" (by
// the library's calls, and by the config files that `import { defineConfig } from 'schema-sync'`
// as a user writes them; the CLI reading such a config is tested in config-files.test.ts).

const KEY = 'right-key-API-4711';
const WRONG = 'wrong-key-API-0815';
let server: TestServer;
let project: string;

/** Config files a user writes, type-checked beside consumer.ts: one valid, two wrong on purpose. */
const CONFIG_FILES: Record<string, string> = {
  'valid/schema-sync.config.mjs': "import { defineConfig } from 'schema-sync';\n\nexport default defineConfig({ baseUrl: 'https://schemas.example.com', out: 'gen', prettier: true, report: 'json' });\n",
  'unknown-key/schema-sync.config.mjs': "import { defineConfig } from 'schema-sync';\n\nexport default defineConfig({ outDir: 'gen' });\n",
  'wrong-type/schema-sync.config.mjs': "import { defineConfig } from 'schema-sync';\n\nexport default defineConfig({ limit: 'many' });\n",
  'settings.ts': "import type { SchemaSyncConfig } from 'schema-sync';\n\nexport const settings: SchemaSyncConfig = { lockfile: 'schema-sync.lock.json', failOn: 'breaking' };\n",
};

/**
 * tsc --noEmit --strict, module nodenext, JavaScript checked too, on consumer.ts and the config
 * files, in one program (each costs seconds): see typecheckOwnFiles for why zod, undici and
 * @types/node declarations are not themselves checked (skipLibCheck would skip them too), while
 * schema-sync's own are. Made on first use.
 */
let checkedConsumer: { checked: string[]; errors: string } | undefined;
function consumerCheck(): { checked: string[]; errors: string } {
  if (checkedConsumer !== undefined) return checkedConsumer;
  const ownDist = realpathSync(join(project, 'node_modules/schema-sync/dist')) + sep;
  return (checkedConsumer = typecheckOwnFiles(join(project, 'tsconfig.json'), (file) => file.startsWith(ownDist)));
}

/** The errors tsc gave for one file of the consumer project (it must have been checked). */
function errorsOf(file: string): string {
  const { checked, errors } = consumerCheck();
  expect(checked.some((f) => f.endsWith(file)), file).toBe(true);
  return errors.split('\n').filter((line) => line.startsWith(`${file}(`)).map((line) => `${line}\n`).join('');
}

beforeAll(async () => {
  server = await startTestServer({ listing: smallListing(3) });
  project = await tempDir('schema-sync-api-');
  await mkdir(join(project, 'node_modules', '@types'), { recursive: true });
  await symlink(ROOT, join(project, 'node_modules', 'schema-sync'), 'dir');
  await symlink(join(ROOT, 'node_modules', '@types', 'node'), join(project, 'node_modules', '@types', 'node'), 'dir');
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await copyFile(join(ROOT, 'test/api/consumer/consumer.mjs'), join(project, 'consumer.mjs'));
  await copyFile(join(ROOT, 'test/api/consumer/consumer.ts'), join(project, 'consumer.ts'));
  for (const [file, text] of Object.entries(CONFIG_FILES)) {
    await mkdir(join(project, file, '..'), { recursive: true });
    await writeFile(join(project, file), text);
  }
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022'], strict: true, noEmit: true, allowJs: true, checkJs: true, types: ['node'] },
      files: ['consumer.ts', ...Object.keys(CONFIG_FILES)],
    }),
  );
});
afterAll(async () => {
  await server.close();
  await removeDir(project);
});

describe('library API from a separate ESM consumer', () => {
  it('pull, check, generate, fetchDescriptors, diffDescriptors, diffLockfiles and emit work against the reference server', async () => {
    server.setOptions({ apiKey: KEY });
    const result = await runCommand(process.execPath, ['consumer.mjs', server.url, KEY, WRONG], project);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout);
    expect(out.fetched).toMatchObject({ count: 3, names: ['T0000', 'T0001', 'T0002'] });
    expect(out.fetched.source.baseUrl).toBe(server.url);
    expect(out.pull).toMatchObject({ messageCount: 3, added: 3, inSync: false });
    expect(out.pull.written).toBeGreaterThan(3);
    expect(out.check).toEqual({ inSync: true, stale: 0 });
    expect(out.generate).toEqual({ messageCount: 3, written: 0 });
    expect(out.diff).toEqual([{ kind: 'changed', name: 'T0000', severity: 'dangerous' }]);
    expect(out.diffLockfiles).toEqual({ inSync: true, accepted: ['T0000 SCHEMA_HASH_CHANGED expected'] });
    expect(out.emit).toEqual(expect.arrayContaining(['index.ts', 'messages/T0000.ts', 'messages/T0001.ts', 'messages/T0002.ts']));

    expect(out.networkError).toMatchObject({ thrown: true, name: 'NetworkError', code: 'NETWORK', status: 401, isSchemaSyncError: true, isError: true, isNetworkError: true });
    expect(result.stdout).not.toContain(WRONG);
    expect(result.stdout).not.toContain(KEY);
    expect(out.lockError).toMatchObject({ thrown: true, name: 'LockError', code: 'LOCK', isSchemaSyncError: true, isLockError: true, isNetworkError: false });
    expect(out.configError).toMatchObject({ thrown: true, name: 'ConfigError', code: 'CONFIG', isConfigError: true });
    expect(out.configError.hint).toMatch(/--base-url|SCHEMA_SYNC_BASE_URL/);
  });

  it('the .d.ts types type-check in a strict nodenext consumer', () => {
    const { checked, errors } = consumerCheck();
    expect(errorsOf('consumer.ts')).toBe('');
    expect(checked.some((f) => f.endsWith('dist/index.d.ts'))).toBe(true);
    // None in schema-sync's own declarations, nor anywhere but the configs that are wrong on purpose.
    const elsewhere = errors.split('\n').filter((line) => /^\S+\(\d+,\d+\): error/.test(line) && !['unknown-key/', 'wrong-type/'].some((folder) => line.startsWith(folder)));
    expect(elsewhere).toEqual([]);
  });
});

describe('defineConfig and SchemaSyncConfig in a consumer', () => {
  it('returns the config it is given', () => {
    const config = { baseUrl: 'https://schemas.example.com', out: 'gen', prettier: true };
    expect(defineConfig(config)).toBe(config);
  });

  it('types a schema-sync.config.mjs: a valid config checks, an unknown key or a wrong type does not', () => {
    expect(errorsOf('valid/schema-sync.config.mjs')).toBe('');
    expect(errorsOf('unknown-key/schema-sync.config.mjs')).toMatch(
      /^unknown-key\/schema-sync\.config\.mjs\(3,31\): error TS2353: Object literal may only specify known properties, and 'outDir' does not exist in type '[^']+'\.$/m,
    );
    expect(errorsOf('wrong-type/schema-sync.config.mjs')).toBe("wrong-type/schema-sync.config.mjs(3,31): error TS2322: Type 'string' is not assignable to type 'number'.\n");
  });

  it('exports the SchemaSyncConfig type for TypeScript users', () => {
    expect(errorsOf('settings.ts')).toBe('');
  });
});

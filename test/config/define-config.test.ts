import { realpathSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineConfig } from '../../src/index.js';
import { ROOT, removeDir, tempDir } from '../helpers/cli.js';
import { typecheckOwnFiles } from '../helpers/tsc.js';

// A project whose node_modules/schema-sync is this repository (built: npm test builds first), so
// `import { defineConfig } from 'schema-sync'` resolves through package.json "exports" as it
// would for a user. The CLI reading such a config is tested in config-files.test.ts.

let project: string;
beforeAll(async () => {
  project = await tempDir('schema-sync-define-');
  await mkdir(join(project, 'node_modules', '@types'), { recursive: true });
  await symlink(ROOT, join(project, 'node_modules', 'schema-sync'), 'dir');
  await symlink(join(ROOT, 'node_modules', '@types', 'node'), join(project, 'node_modules', '@types', 'node'), 'dir');
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'configured', private: true, type: 'module' }));
});
afterAll(() => removeDir(project));

/** The files type-checked together, one program for all (each program costs seconds). */
const files: Record<string, string> = {
  'valid/schema-sync.config.mjs': "import { defineConfig } from 'schema-sync';\n\nexport default defineConfig({ baseUrl: 'https://schemas.example.com', out: 'gen', prettier: true, report: 'json' });\n",
  'unknown-key/schema-sync.config.mjs': "import { defineConfig } from 'schema-sync';\n\nexport default defineConfig({ outDir: 'gen' });\n",
  'wrong-type/schema-sync.config.mjs': "import { defineConfig } from 'schema-sync';\n\nexport default defineConfig({ limit: 'many' });\n",
  'settings.ts': "import type { SchemaSyncConfig } from 'schema-sync';\n\nexport const settings: SchemaSyncConfig = { lockfile: 'schema-sync.lock.json', failOn: 'breaking' };\n",
};
let checked: string[] = [];
let errors = '';

/** tsc --strict (nodenext, JavaScript checked too) on the files above; see typecheckOwnFiles. */
beforeAll(async () => {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(project, file, '..'), { recursive: true });
    await writeFile(join(project, file), text);
  }
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022'], strict: true, noEmit: true, allowJs: true, checkJs: true, types: ['node'] },
      files: Object.keys(files),
    }),
  );
  const ownDist = realpathSync(join(project, 'node_modules/schema-sync/dist')) + sep;
  ({ checked, errors } = typecheckOwnFiles(join(project, 'tsconfig.json'), (file) => file.startsWith(ownDist)));
});

/** The errors tsc gave for one file (it must have been checked). */
function errorsOf(file: string): string {
  expect(checked.some((f) => f.endsWith(file))).toBe(true);
  return errors.split('\n').filter((line) => line.startsWith(`${file}(`)).map((line) => `${line}\n`).join('');
}

describe('defineConfig', () => {
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

  it('reports no error outside the files checked', () => {
    const elsewhere = errors.split('\n').filter((line) => /^\S+\(\d+,\d+\): error/.test(line) && !Object.keys(files).some((f) => line.startsWith(`${f}(`)));
    expect(elsewhere).toEqual([]);
  });
});

import { spawn } from 'node:child_process';
import { copyFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineConfig } from '../../src/index.js';
import { ROOT, removeDir, tempDir } from '../helpers/cli.js';

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
  await copyFile(join(ROOT, 'test/api/consumer/typecheck.mjs'), join(project, 'typecheck.mjs'));
});
afterAll(() => removeDir(project));

/** tsc --strict (nodenext, JavaScript checked too) on one file of the project; see test/api/consumer/typecheck.mjs. */
async function typecheck(file: string): Promise<{ checked: string[]; errors: string }> {
  const result = await new Promise<{ checked: string[]; errors: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['typecheck.mjs', join(ROOT, 'node_modules/typescript')], { cwd: project, env: { PATH: process.env['PATH'] } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', () => (stderr ? reject(new Error(stderr)) : resolve(JSON.parse(stdout) as { checked: string[]; errors: string })));
  });
  expect(result.checked.some((f) => f.endsWith(file))).toBe(true);
  return result;
}

async function configProject(file: string, text: string): Promise<void> {
  await writeFile(join(project, file), text);
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022'], strict: true, noEmit: true, allowJs: true, checkJs: true, types: ['node'] },
      files: [file],
    }),
  );
}

describe('defineConfig', () => {
  it('returns the config it is given', () => {
    const config = { baseUrl: 'https://schemas.example.com', out: 'gen', prettier: true };
    expect(defineConfig(config)).toBe(config);
  });

  it('types a schema-sync.config.mjs: a valid config checks, an unknown key or a wrong type does not', async () => {
    await configProject('schema-sync.config.mjs', "import { defineConfig } from 'schema-sync';\n\nexport default defineConfig({ baseUrl: 'https://schemas.example.com', out: 'gen', prettier: true, report: 'json' });\n");
    expect((await typecheck('schema-sync.config.mjs')).errors).toBe('');
    await configProject('schema-sync.config.mjs', "import { defineConfig } from 'schema-sync';\n\nexport default defineConfig({ outDir: 'gen' });\n");
    expect((await typecheck('schema-sync.config.mjs')).errors).toMatch(
      /^schema-sync\.config\.mjs\(3,31\): error TS2353: Object literal may only specify known properties, and 'outDir' does not exist in type '[^']+'\.$/m,
    );
    await configProject('schema-sync.config.mjs', "import { defineConfig } from 'schema-sync';\n\nexport default defineConfig({ limit: 'many' });\n");
    expect((await typecheck('schema-sync.config.mjs')).errors).toBe("schema-sync.config.mjs(3,31): error TS2322: Type 'string' is not assignable to type 'number'.\n");
  });

  it('exports the SchemaSyncConfig type for TypeScript users', async () => {
    await configProject('settings.ts', "import type { SchemaSyncConfig } from 'schema-sync';\n\nexport const settings: SchemaSyncConfig = { lockfile: 'schema-sync.lock.json', failOn: 'breaking' };\n");
    expect((await typecheck('settings.ts')).errors).toBe('');
  });
});

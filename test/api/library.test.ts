import { realpathSync } from 'node:fs';
import { copyFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { removeDir, ROOT, runCommand, tempDir } from '../helpers/cli.js';
import { smallListing } from '../helpers/listing.js';
import { typecheckOwnFiles } from '../helpers/tsc.js';

// The package as another project sees it: a separate folder whose node_modules/schema-sync is
// this repository (built: npm test builds first), imported through package.json "exports".

const KEY = 'right-key-API-4711';
const WRONG = 'wrong-key-API-0815';
let server: TestServer;
let project: string;

beforeAll(async () => {
  server = await startTestServer({ listing: smallListing(3) });
  project = await tempDir('schema-sync-api-');
  await mkdir(join(project, 'node_modules', '@types'), { recursive: true });
  await symlink(ROOT, join(project, 'node_modules', 'schema-sync'), 'dir');
  await symlink(join(ROOT, 'node_modules', '@types', 'node'), join(project, 'node_modules', '@types', 'node'), 'dir');
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await copyFile(join(ROOT, 'test/api/consumer/consumer.mjs'), join(project, 'consumer.mjs'));
  await copyFile(join(ROOT, 'test/api/consumer/consumer.ts'), join(project, 'consumer.ts'));
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

  it('the .d.ts types type-check in a strict nodenext consumer', async () => {
    // tsc --noEmit --strict, module nodenext; see typecheckOwnFiles for why zod, undici and
    // @types/node declarations are not themselves checked (skipLibCheck would skip them too).
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022'], strict: true, noEmit: true, types: ['node'] },
        files: ['consumer.ts'],
      }),
    );
    const ownDist = realpathSync(join(project, 'node_modules/schema-sync/dist')) + sep;
    const { checked, errors } = typecheckOwnFiles(join(project, 'tsconfig.json'), (file) => file.startsWith(ownDist));
    expect(errors).toBe('');
    expect(checked.some((f) => f.endsWith('consumer.ts'))).toBe(true);
    expect(checked.some((f) => f.endsWith('dist/index.d.ts'))).toBe(true);
  });
});

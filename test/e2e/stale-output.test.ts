import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { exampleListing, wireElement } from '../helpers/listing.js';

// Generated files that the lockfile no longer generates, and that no manifest names: a pull that
// added a type, undone with `git checkout -- .`, leaves the new type's module behind, untracked.

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startTestServer({ listing: exampleListing() });
  dir = await tempDir();
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Schema Test');
  git(dir, 'config', 'user.email', 'schema-test@example.com');
  git(dir, 'config', 'commit.gpgsign', 'false');
  expect((await cli('pull')).code).toBe(0);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'pulled');
});
afterAll(async () => {
  await server.close();
  await removeDir(dir);
});

const cli = (command: string, ...args: string[]) => runCli([command, '--base-url', server.url, '--out', 'out', ...args], { cwd: dir });

describe('stale generated files', () => {
  it('a pull undone by git checkout leaves its new module: check reports it, generate deletes it, a hand file stays with a warning', async () => {
    server.setListing([...exampleListing(), wireElement({ name: 'ZNewType', mNum: 99999, mToken: 'Brand' })]);
    expect((await cli('pull')).code).toBe(0);
    const added = join(dir, 'out', 'messages', 'ZNewType.ts');
    expect(existsSync(added)).toBe(true);
    git(dir, 'checkout', '--', '.');
    server.setListing(exampleListing());
    expect(git(dir, 'status', '--porcelain')).toBe('?? out/messages/ZNewType.ts\n');
    const hand = join(dir, 'out', 'messages', 'Notes.ts');
    await writeFile(hand, 'export const notes = 1;\n');

    const checked = await cli('check', '--format', 'json');
    expect(checked.code).toBe(1);
    expect(JSON.parse(checked.stdout).staleFiles).toEqual([{ path: 'messages/ZNewType.ts', reason: 'extra' }]);
    expect(checked.stderr).toContain('messages/Notes.ts');

    const generated = await runCli(['generate', '--out', 'out'], { cwd: dir });
    expect(generated.code).toBe(0);
    expect(existsSync(added)).toBe(false);
    expect(await readFile(hand, 'utf8')).toBe('export const notes = 1;\n');
    expect(generated.stderr).toContain('holds 1 file that schema-sync did not generate: messages/Notes.ts');

    const again = await cli('check');
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('messages/Notes.ts');
    expect(git(dir, 'status', '--porcelain')).toBe('?? out/messages/Notes.ts\n');
  });

  it('pull deletes stale output too', async () => {
    await writeFile(join(dir, 'out', 'messages', 'Gone.ts'), (await readFile(join(dir, 'out', 'index.ts'), 'utf8')).split('\n').slice(0, 2).join('\n') + '\nexport {};\n');
    const pulled = await cli('pull');
    expect(pulled.code).toBe(0);
    expect(existsSync(join(dir, 'out', 'messages', 'Gone.ts'))).toBe(false);
  });
});

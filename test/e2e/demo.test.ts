import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { readTree, removeDir, ROOT, tempDir } from '../helpers/cli.js';

it('the demo regenerates generated-example/ byte for byte', async () => {
  const dir = await tempDir();
  try {
    const out = join(dir, 'generated-example');
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, [join(ROOT, 'scripts/demo.mjs'), out], { cwd: ROOT, stdio: 'ignore' });
      child.on('error', reject);
      child.on('exit', resolve);
    });
    expect(code).toBe(0);
    const fresh = await readTree(out);
    const committed = await readTree(join(ROOT, 'generated-example'));
    expect([...fresh.keys()]).toEqual([...committed.keys()]);
    for (const [path, text] of fresh) expect(text, path).toBe(committed.get(path));
  } finally {
    await removeDir(dir);
  }
});

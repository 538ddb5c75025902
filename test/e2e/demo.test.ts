import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { readTree, removeDir, ROOT, tempDir } from '../helpers/cli.js';

it('the demo regenerates generated-example/ and generated-example-records/ byte for byte', async () => {
  const dir = await tempDir();
  try {
    const out = join(dir, 'generated-example');
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, [join(ROOT, 'scripts/demo.mjs'), out], { cwd: ROOT, stdio: 'ignore' });
      child.on('error', reject);
      child.on('exit', resolve);
    });
    expect(code).toBe(0);
    for (const folder of ['generated-example', 'generated-example-records']) {
      const fresh = await readTree(join(dir, folder));
      const committed = await readTree(join(ROOT, folder));
      expect([...fresh.keys()]).toEqual([...committed.keys()]);
      for (const [path, text] of fresh) expect(text, `${folder}/${path}`).toBe(committed.get(path));
    }
  } finally {
    await removeDir(dir);
  }
});

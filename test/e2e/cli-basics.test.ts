import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, runBin } from '../helpers/cli.js';

describe('cli basics', () => {
  it('prints help with every command', async () => {
    const run = await runBin(['--help'], { cwd: ROOT });
    expect(run.code).toBe(0);
    for (const command of ['pull', 'check', 'generate', 'serve']) expect(run.stdout).toContain(command);
  });

  it('rejects an unknown flag with exit 2', async () => {
    const run = await runBin(['pull', '--bsae-url', 'x'], { cwd: ROOT });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Unknown argument/i);
  });

  it('serve prints its base URL and answers /rest/proto as the file has it (getschema from the schema file beside) until stopped', async () => {
    const args = ['serve', '--file', 'examples/descriptors.json', '--port', '0'];
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const line = out.split('\n')[0];
        if (out.includes('\n') && line) resolve(line.trim());
      });
      child.on('error', reject);
      child.on('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const listing = (await (await fetch(`${url}/rest/proto?limit=5`)).json()) as unknown[];
    expect(listing).toHaveLength(5);
    expect((listing[0] as { message: unknown }).message).toMatchObject({ actions: 'SIURD', hasTKey: 'Yes', hasEKey: 'No' });
    const schema = (await (await fetch(`${url}/rest/proto?cmd=getschema&msgType=OptionNbboQuote`)).json()) as { header: unknown; message: { name: string } }[];
    expect(schema[0]).toMatchObject({ header: { mTyp: 'FieldDesc' }, message: { name: 'okey', fType: 'OptionKey' } });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

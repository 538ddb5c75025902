import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { removeDir, tempDir } from '../helpers/cli.js';
import { wireElement } from '../helpers/listing.js';
import { Capture, runInProcess } from './fake-io.js';

// `serve`'s inputs: the listing (--file), and the field descriptors that answer cmd=getschema,
// from --schemas or from <file>.schemas.json beside the listing.

let dir: string;

beforeAll(async () => {
  dir = await tempDir('schema-sync-serve-');
  await writeFile(join(dir, 'listing.json'), JSON.stringify([wireElement({ name: 'Order', mNum: 1001 })]));
  await writeFile(join(dir, 'listing.schemas.json'), JSON.stringify({ Order: [{ pos: 1, name: 'besideField', fNum: 10, isPkey: 'No', fType: 'Int' }] }));
  await writeFile(join(dir, 'fields.json'), JSON.stringify({ Order: [{ pos: 1, name: 'flagField', fNum: 10, isPkey: 'No', fType: 'Long' }] }));
});
afterAll(() => removeDir(dir));

/** Runs `serve` with `args`, asks it for Order's getschema answer while it runs, and stops it. */
async function fieldNamesServed(args: string[]): Promise<{ code: number; names: string[] }> {
  const stdout = new Capture();
  const stdin = new PassThrough();
  stdin.end();
  let names: string[] = [];
  const untilStopped = async () => {
    const url = stdout.text.split('\n')[0]!.trim();
    const answer = (await (await fetch(`${url}/rest/proto?cmd=getschema&msgType=Order`)).json()) as { message: { name: string } }[];
    names = answer.map((element) => element.message.name);
  };
  const code = await runCli(['serve', ...args], { stdout, stderr: new Capture(), stdin, env: {}, cwd: dir, untilStopped });
  return { code, names };
}

describe('serve --schemas', () => {
  it('answers getschema from the file --schemas names, else from <file>.schemas.json beside the listing', async () => {
    expect(await fieldNamesServed(['--file', 'listing.json', '--schemas', 'fields.json'])).toEqual({ code: 0, names: ['flagField'] });
    expect(await fieldNamesServed(['--file', 'listing.json'])).toEqual({ code: 0, names: ['besideField'] });
  });

  it('a --schemas file that is missing or not schemas: exit 2, naming it', async () => {
    const missing = await runInProcess(['serve', '--file', 'listing.json', '--schemas', 'nope.json'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.json');
    const wrong = await runInProcess(['serve', '--file', 'listing.json', '--schemas', 'listing.json'], { cwd: dir });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('must be a JSON object of arrays');
  });

  it('--help says both ways', async () => {
    const help = await runInProcess(['serve', '--help'], { cwd: dir });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--schemas');
    expect(help.stdout).toMatch(/<file>\.schemas\.json\s+beside the listing/);
  });
});

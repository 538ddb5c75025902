import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/model/errors.js';
import { loadListingFile } from '../../src/server/index.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'schema-sync-server-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadListingFile', () => {
  it('reads the example listing', async () => {
    const listing = await loadListingFile('examples/descriptors.json');
    expect(listing.length).toBeGreaterThan(100);
    expect(listing[0]).toMatchObject({ header: { msgType: 'MsgDesc' }, message: { name: 'AccountRiskRecordV5' } });
  });

  it('accepts a file starting with a byte order mark', async () => {
    const path = join(dir, 'bom.json');
    await writeFile(path, '\uFEFF[{"header":{"mTyp":"MsgDesc"},"message":{}}]');
    expect(await loadListingFile(path)).toEqual([{ header: { mTyp: 'MsgDesc' }, message: {} }]);
  });

  it.each<[string, string, RegExp]>([
    [
      'object.json',
      '{"header":{}}',
      /^Listing file .*object\.json holds an object, not a JSON array of listing elements\.$/,
    ],
    ['null.json', 'null', /^Listing file .*null\.json holds null, not a JSON array/],
    ['number.json', '42', /^Listing file .*number\.json holds a number, not a JSON array/],
    ['broken.json', '[{"header":', /^Listing file .*broken\.json is not valid JSON: .+\.$/],
    ['empty.json', '', /^Listing file .*empty\.json is not valid JSON: /],
  ])('rejects %s with a ConfigError', async (name, text, message) => {
    const path = join(dir, name);
    await writeFile(path, text);
    const error: unknown = await loadListingFile(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
  });

  it('says which file it cannot read', async () => {
    const path = join(dir, 'missing.json');
    await expect(loadListingFile(path)).rejects.toThrow(`Cannot read listing file ${path}: ENOENT`);
  });
});

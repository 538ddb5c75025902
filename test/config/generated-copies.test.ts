/**
 * The copies written from the settings table (`npm run config-schema`): config.schema.json at the
 * repository root and the key table of docs/configuration.md. Either one stale fails here.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configJsonSchemaText } from '../../src/config/schema.js';
import { withKeyTable } from '../../src/config/key-table.js';
import { ROOT } from '../helpers/cli.js';

describe('the copies of the settings table', () => {
  it('config.schema.json is the one the table gives, byte for byte', async () => {
    expect(await readFile(join(ROOT, 'config.schema.json'), 'utf8')).toBe(configJsonSchemaText());
  });

  it("docs/configuration.md's key table is the one the table gives", async () => {
    const docs = await readFile(join(ROOT, 'docs/configuration.md'), 'utf8');
    expect(withKeyTable(docs)).toBe(docs);
  });
});

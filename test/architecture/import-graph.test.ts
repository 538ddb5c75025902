/**
 * The import graph keeps the layering (scripts/import-graph.mjs, also run as
 * `npm run import-graph`): no runtime import cycle in the built JavaScript, util/ imports nothing
 * else of src/, model/ imports no stage. The checker itself is tried on a small made-up tree.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCycles, importFindings, importGraph, layeringProblems } from '../../scripts/import-graph.mjs';
import { removeDir, ROOT, tempDir } from '../helpers/cli.js';

describe('the import graph of the built package (dist/)', () => {
  it('has no runtime import cycle, and util/ and model/ import no stage', () => {
    expect(importFindings(ROOT)).toEqual({ cycles: [], layering: [] });
  });
});

describe('the import graph checker', () => {
  let dir: string;
  /** A made-up dist/: each module with its text. */
  const modules: Record<string, string> = {
    'write/change-set.js': "import { isSafe } from './manifest.js';\nexport const a = 1;\n",
    'write/manifest.js': "import { a } from './change-set.js';\nexport const isSafe = () => a;\n",
    'cli/table.js': "export const run = () => import('./serve.js');\n",
    'cli/serve.js': "export { run } from './table.js';\n",
    'util/canonical-json.js': "import { compare } from '../model/descriptor.js';\n",
    'model/descriptor.js': "import { readFlag } from '../fetch/encodings.js';\nexport const t = `\nimport { x } from '../run/pull.js';\n`;\n",
    'fetch/encodings.js': 'export const readFlag = 1;\n',
    'run/pull.js': 'export const pull = 1;\n',
  };

  beforeAll(async () => {
    dir = await tempDir('schema-sync-import-graph-');
    for (const [path, text] of Object.entries(modules)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    }
  });
  afterAll(() => removeDir(dir));

  it('finds each cycle, also through a lazily loaded module, as a path back to its start', () => {
    expect(importCycles(importGraph(dir, '.js'))).toEqual([
      ['cli/serve.js', 'cli/table.js', 'cli/serve.js'],
      ['write/change-set.js', 'write/manifest.js', 'write/change-set.js'],
    ]);
  });

  it('finds util/ and model/ importing upward, and takes no template text for an import', () => {
    expect(layeringProblems(importGraph(dir, '.js'))).toEqual([
      'model/descriptor.js → fetch/encodings.js (model/ imports no stage)',
      'util/canonical-json.js → model/descriptor.js (util/ imports nothing else of src/)',
    ]);
  });

  it('counts no type-only import as a runtime edge', async () => {
    const src = join(dir, 'src');
    await mkdir(src, { recursive: true });
    await writeFile(join(src, 'a.ts'), "import type { B } from './b.js';\nimport { type C } from './c.js';\nexport type A = B | C;\n");
    await writeFile(join(src, 'b.ts'), "import { a } from './a.js';\nexport type B = typeof a;\n");
    await writeFile(join(src, 'c.ts'), 'export type C = 1;\n');
    const graph = importGraph(src, '.ts');
    expect(graph.get('a.ts')).toEqual([
      { to: 'b.ts', typeOnly: true },
      { to: 'c.ts', typeOnly: true },
    ]);
    expect(importCycles(graph)).toEqual([]);
  });
});
